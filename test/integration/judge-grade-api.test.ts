// grade as a job through the typed API: grade.start answers at once with the graded dataset's id, grade.progress
// follows it, grade.wait gives the summary (also for a grade finished earlier), grade.cancel stops it. Every
// output is checked against its declared schema.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gradeApi, gradeProgress, type GradeProgress } from '../../shared/api/grade';
import { importFile } from '../../main/cli/import-file';
import { createEngine, type Engine } from '../../main/engine/engine';
import { buildEngine } from '../helpers/build-engine';

beforeAll(buildEngine, 120_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grade-api-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let engine: Engine;
let sourceId: string;
beforeAll(async () => {
  engine = createEngine({ dbPath: path.join(dir, 'desk.db') });
  const file = path.join(dir, 'rows.jsonl');
  fs.writeFileSync(file, Array.from({ length: 600 }, (_, i) => JSON.stringify({ schema_version: '1', scenario_id: `s${i}`, rollout_index: 0, prompt: 'p', steps: [], final_text: i % 3 ? 'yes' : 'no' })).join('\n') + '\n');
  sourceId = (await importFile(engine, file, { name: 'api rows', skipInvalid: false })).dataset_id as string;
});
afterAll(() => engine?.close());

function judge(name: string, source: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, source);
  return file;
}

describe('grade through the typed API', () => {
  it('starts, reports progress, and waits for a summary that fits its schema', async () => {
    const events: GradeProgress[] = [];
    const off = engine.on('grade.progress', (event) => events.push(event));
    const started = await engine.call('grade.start', { dataset_id: sourceId, judge: { kind: 'module', path: judge('yes.mjs', 'export default (row) => row.final_text === "yes";\n') } });
    expect(gradeApi['grade.start'].output.parse(started)).toEqual(started);
    expect(started).toMatchObject({ grade_id: started.dataset_id, parent_id: sourceId, judge_name: 'yes', total: 600 });
    const summary = await engine.call('grade.wait', { grade_id: started.grade_id });
    off();
    expect(gradeApi['grade.wait'].output.parse(summary)).toEqual(summary);
    expect(summary).toMatchObject({ dataset_id: started.grade_id, rows: 600, graded: 600, mean_reward: 0.666667, all_failed: false, judge_status_counts: { ok: 600, crashed: 0 } });
    const mine = events.filter((event) => event.grade_id === started.grade_id);
    mine.forEach((event) => gradeProgress.parse(event));
    expect(mine.at(-1)).toMatchObject({ status: 'done', done: 600, total: 600 });
    expect(mine.some((event) => event.status === 'grading' && event.done > 0 && event.done < 600)).toBe(true);
    // a finished grade still answers grade.wait, from the dataset's record
    expect(await engine.call('grade.wait', { grade_id: started.grade_id })).toEqual(summary);
  });

  it('says when no row was graded, with counts by status', async () => {
    const started = await engine.call('grade.start', { dataset_id: sourceId, judge: { kind: 'module', path: judge('none.mjs', 'export default () => ({ verdict: "pass" });\n') } });
    const summary = await engine.call('grade.wait', { grade_id: started.grade_id });
    expect(summary).toMatchObject({ graded: 0, all_failed: true, mean_reward: null, judge_status_counts: { ok: 0, missing_reward: 600 } });
  });

  it('cancels a running grade: the job rejects as cancelled and the dataset is marked so', async () => {
    const slow = judge('slow.mjs', 'export default async () => { await new Promise((r) => setTimeout(r, 20)); return 1; };\n');
    const started = await engine.call('grade.start', { dataset_id: sourceId, judge: { kind: 'module', path: slow } });
    const waiting = engine.call('grade.wait', { grade_id: started.grade_id });
    expect(await engine.call('grade.cancel', { grade_id: started.grade_id })).toEqual({ cancelled: true });
    await expect(waiting).rejects.toMatchObject({ code: 'cancelled' });
    expect(await engine.call('datasets.get', { id: started.grade_id })).toMatchObject({ status: 'cancelled' });
    expect(await engine.call('grade.cancel', { grade_id: started.grade_id })).toEqual({ cancelled: false });
  });

  it('refuses a judge that does not load before any dataset is made, and an unknown dataset', async () => {
    const before = (await engine.call('datasets.list', {})).length;
    await expect(engine.call('grade.start', { dataset_id: sourceId, judge: { kind: 'rules', path: judge('bad.json', '{"rule": {"regex": "(a)\\\\1"}}') } })).rejects.toMatchObject({ code: 'bad_input', message: expect.stringMatching(/bad\.json: rule\.regex: not a valid regular expression/) });
    await expect(engine.call('grade.start', { dataset_id: 'ds-nope', judge: { kind: 'module', path: judge('ok.mjs', 'export default () => 1;\n') } })).rejects.toMatchObject({ code: 'not_found' });
    await expect(engine.call('grade.wait', { grade_id: 'ds-nope' })).rejects.toMatchObject({ code: 'not_found' });
    expect((await engine.call('datasets.list', {})).length).toBe(before);
  });
});
