// `while-desk grade DATASET --judge rubric:FILE.json | likert:AGENT@LO-HI` as a separate process against the fake
// OpenAI-compatible server: markers rubric:<slug> on the graded rows, the Likert rating kept, and judge trust's
// INCONCLUSIVE when a rubric of principles gives too many labeled rows a fractional reward.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../fixtures/fake-openai-server.mjs';
import { buildEngine, cli, runRows } from './sim-run-helpers';

beforeAll(buildEngine, 120_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rubric-grade-'));
const dbPath = path.join(dir, 'desk.db');
let server: FakeOpenAiServer;
let sourceId = '';

/** The index of the row a judge request is about (its situation names the order). */
const indexOf = (body: { messages: Array<{ content: string }> }) => Number(/A-(\d+)/.exec(body.messages[1].content)?.[1] ?? -1);

beforeAll(async () => {
  server = await startFakeOpenAiServer({
    respond: (body) => {
      const i = indexOf(body);
      if (String(body.messages[0].content).includes('rate one rollout')) return JSON.stringify({ reason: 'rated', rating: 1 + (i % 5) });
      // all met on even rows, none on i % 4 == 1, two of three on i % 4 == 3 (a fractional 0.6667)
      const met = i % 2 === 0 ? [true, true, true] : i % 4 === 1 ? [false, false, false] : [true, true, false];
      return JSON.stringify({ criteria: { 1: met[0], 2: met[1], 3: met[2] }, reason: `row ${i}` });
    },
  });
  const rows = Array.from({ length: 24 }, (_, i) => JSON.stringify({ schema_version: '1', scenario_id: `s${i}`, rollout_index: 0, prompt: `Where is order A-${i}?`, steps: [], final_text: `Order A-${i} shipped.` }));
  fs.writeFileSync(path.join(dir, 'rows.jsonl'), rows.join('\n') + '\n');
  const imported = await cli(['import', path.join(dir, 'rows.jsonl'), '--db', dbPath, '--json']);
  sourceId = JSON.parse(imported.stdout).dataset_id;
  const labels = Array.from({ length: 24 }, (_, i) => JSON.stringify({ key: `s${i}#0`, label: i % 4 === 1 ? 0 : 1 }));
  fs.writeFileSync(path.join(dir, 'labels.jsonl'), labels.join('\n') + '\n');
  expect((await cli(['labels', 'import', path.join(dir, 'labels.jsonl'), '--dataset', sourceId, '--annotator', 'ann', '--db', dbPath])).code).toBe(0);
}, 60_000);

afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('grade with rubric and Likert judges', () => {
  it('rubric:FILE.json: markers per criterion, mean reward, and INCONCLUSIVE trust over the skipped share', async () => {
    const rubric = path.join(dir, 'rubric.json');
    fs.writeFileSync(rubric, JSON.stringify({ criteria: [{ title: 'Looked up the order' }, { title: 'Named the status', description: 'Important Criteria: says shipped or not' }, { title: 'Offered tracking' }] }));
    const graded = await cli(['grade', sourceId, '--judge', `rubric:${rubric}`, '--judge-agent', `openai:grader@${server.baseUrl}`, '--db', dbPath, '--json']);
    expect(graded.stderr).toBe('');
    expect(graded.code).toBe(0);
    const summary = JSON.parse(graded.stdout);
    expect(summary).toMatchObject({ rows: 24, graded: 24, judge_status_counts: { ok: 24 } });
    expect(summary.judge_name).toMatch(/^grader@[0-9a-f]{12}$/);
    expect(summary.mean_reward).toBeCloseTo((12 * 1 + 6 * 0 + 6 * 0.6667) / 24, 4);
    expect(summary.trust).toMatchObject({ verdict: 'inconclusive', ok: false });
    expect(summary.trust.line).toMatch(/6 of 24 labeled rows have a fractional reward/);
    const rows = runRows(dbPath, summary.dataset_id);
    const three = rows.find((r) => r.scenario_id === 's3')!.row;
    expect(three).toMatchObject({ reward: 0.6667, markers: { 'rubric:looked_up_the_order': 1, 'rubric:named_the_status': 1, 'rubric:offered_tracking': 0 }, judge_status: 'ok' });
    expect((three.judge_meta as Record<string, unknown>).missed).toEqual(['Offered tracking']);
    const trust = await cli(['stats', 'judge-trust', summary.dataset_id, '--db', dbPath]);
    expect(trust.stdout).toMatch(/^INCONCLUSIVE \(6 of 24 labeled rows skipped, 25\.0%/m);
    const trustJson = JSON.parse((await cli(['stats', 'judge-trust', summary.dataset_id, '--db', dbPath, '--json'])).stdout);
    expect(trustJson.report?.skipped ?? trustJson.skipped).toMatchObject({ fractional: 6, n_gold: 24, over_floor: true });
  }, 60_000);

  it('likert:AGENT@1-5: reward (r - 1) / 4 with the rating and scale kept', async () => {
    const graded = await cli(['grade', sourceId, '--judge', `likert:openai:rater@${server.baseUrl}@1-5`, '--db', dbPath, '--json']);
    expect(graded.code).toBe(0);
    const summary = JSON.parse(graded.stdout);
    expect(summary.judge_status_counts.ok).toBe(24);
    const rows = runRows(dbPath, summary.dataset_id);
    for (const { row, scenario_id } of rows) {
      const rating = 1 + (Number(scenario_id.slice(1)) % 5);
      expect(row.reward).toBe(rating === 1 ? 0 : rating === 5 ? 1 : (rating - 1) / 4);
      expect(row.judge_meta).toMatchObject({ rating, scale: [1, 5] });
    }
  }, 60_000);

  it('with no model named, says the seeded stand-in answers (a dry run); a bad rubric file is refused before anything is written', async () => {
    const rubric = path.join(dir, 'rubric.json');
    const dry = await cli(['grade', sourceId, '--judge', `rubric:${rubric}`, '--db', dbPath, '--json']);
    expect(dry.code).toBe(0);
    expect(dry.stderr).toMatch(/seeded stand-in answers: a dry run/);
    expect(JSON.parse(dry.stdout).judge_status_counts.ok).toBe(24);
    fs.writeFileSync(path.join(dir, 'bad.json'), '{"criteria": []}');
    const bad = await cli(['grade', sourceId, '--judge', `rubric:${path.join(dir, 'bad.json')}`, '--judge-agent', 'seeded', '--db', dbPath]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/bad\.json: a rubric needs at least one criterion/);
  }, 60_000);

  it('a model that hangs, floods or calls a tool costs each row its own status, within the per-row deadline', async () => {
    const hostile = await startFakeOpenAiServer({
      faultFor: (body) => (indexOf(body) % 3 === 0 ? { kind: 'hang' } : undefined),
      respond: (body) => (indexOf(body) % 3 === 1 ? `{"criteria": {"1": true}, "reason": "${'x'.repeat(200_000)}` : { content: null, tool_calls: [{ name: 'get_order', arguments: { id: 'A-1' } }] }),
    });
    try {
      const rubric = path.join(dir, 'rubric.json');
      const started = Date.now();
      const graded = await cli(['grade', sourceId, '--judge', `rubric:${rubric}@openai:grader@${hostile.baseUrl}`, '--judge-timeout', '1', '--db', dbPath, '--json'], 60_000);
      expect(graded.code).toBe(0);
      expect(Date.now() - started).toBeLessThan(20_000);
      const summary = JSON.parse(graded.stdout);
      expect(summary).toMatchObject({ rows: 24, graded: 0, all_failed: true, judge_status_counts: { ok: 0, crashed: 0 } });
      // the 8 hanging rows time out; the floods and tool calls are no verdict (or, when the agent's own retry of a
      // malformed reply outlasts the deadline, a timeout too)
      const { timeout, invalid_result: invalid, error } = summary.judge_status_counts;
      expect(timeout).toBeGreaterThanOrEqual(8);
      expect(timeout + invalid + error).toBe(24);
      for (const { row } of runRows(dbPath, summary.dataset_id)) {
        expect(row.reward).toBeNull();
        // No rubric verdicts on a row its judge failed (the markers stamped at grading time, docs/markers.md, stay).
        expect(Object.keys((row.markers ?? {}) as object).filter((name) => name.startsWith('rubric:'))).toEqual([]);
      }
    } finally {
      await hostile.close();
    }
  }, 60_000);
});
