// labels.import / export / summary / queue through the engine, against the SDK's own attach_labels outputs.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../main/engine/engine';
import { readDatasetRows } from '../../main/rows/index';
import { attachLabels } from '../../shared/stats/labels';
import { repoRoot, tempDir, writeJsonl } from '../helpers/temp';

const cases = path.join(repoRoot, 'test/fixtures/conformance/cases');
type Obj = Record<string, unknown>;

let engine: Engine | null = null;
afterEach(async () => {
  await engine?.close();
  engine = null;
});

async function open(rowsFile: string): Promise<{ engine: Engine; id: string; dir: string }> {
  const dir = tempDir();
  engine = createEngine({ dbPath: path.join(dir, 'desk.db') });
  const result = await engine.call('datasets.importFile', { path: rowsFile, name: 'labels' });
  return { engine, id: result.dataset_id as string, dir };
}

const gen = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ schema_version: '1', scenario_id: `t${i % 7}`, rollout_index: Math.floor(i / 7), prompt: `p${i}`, steps: [], final_text: `reply ${i}`, reward: i % 4 === 0 ? 0 : 1, category: i % 2 ? 'refund' : 'billing', judge_status: 'ok' }));

describe('labels.import in the SDK format', () => {
  it('gives attach_labels report on the key-forms case and stamps the same gold', async () => {
    const dir = path.join(cases, 'attach_labels_key_forms');
    const { engine, id } = await open(path.join(dir, 'rows.jsonl'));
    const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')).result;
    const out = await engine.call('labels.import', { dataset_id: id, path: path.join(dir, 'labels.jsonl'), annotator: 'qa-team', kind: 'human' });
    expect(out.report).toEqual(expected.report);
    expect(out.stored).toBe(10);
    for (const want of expected.rows as Obj[]) {
      const { row } = await engine.call('datasets.row', { id, ordinal: want.index as number });
      expect(row.gold_reward ?? null).toEqual(want.gold_reward);
      expect(row.gold_kind ?? null).toEqual(want.gold_kind);
      const strip = (labels: unknown) => ((labels as Obj[] | undefined) ?? []).map(({ ts: _ts, ...rest }) => rest);
      expect(strip(row.gold_labels)).toEqual(strip(want.gold_labels));
    }
  });

  it('refuses an ambiguous key before anything is written, with the SDK message', async () => {
    const dir = path.join(cases, 'attach_labels_ambiguous_error');
    const { engine, id } = await open(path.join(dir, 'rows.jsonl'));
    const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8'));
    await expect(engine.call('labels.import', { dataset_id: id, path: path.join(dir, 'labels.jsonl') })).rejects.toMatchObject({ code: 'bad_input', message: expect.stringContaining(expected.error.message) });
    expect((await engine.call('labels.list', { dataset_id: id })).labels).toEqual([]);
  });

  it('takes a {key: label} mapping with the verifier alias, and export round-trips to the same gold', async () => {
    const dir = tempDir();
    const rows = gen(14);
    const { engine, id } = await open(writeJsonl(path.join(dir, 'rows.jsonl'), rows));
    const out = await engine.call('labels.import', { dataset_id: id, text: JSON.stringify({ 't0#0': 1, 't1#0': 0, nope: 1 }), kind: 'verifier', annotator: 'rules' });
    expect(out.report).toMatchObject({ labels: 3, matched: 2, unmatched: 1, unmatched_keys: ['nope'], annotators: ['rules'] });
    expect(out.report.warnings?.[0]).toMatch(/1 label\(s\) named no row/);
    await engine.call('labels.append', { dataset_id: id, row_key: 't2#0', annotator: 'ana', value: 1 });
    await engine.call('labels.append', { dataset_id: id, row_key: 't2#0', annotator: 'ana', value: null });
    await engine.call('labels.append', { dataset_id: id, row_key: 't3#0', annotator: 'ana', value: 0, note: 'no refund issued' });
    const file = path.join(dir, 'labels.out.jsonl');
    expect(await engine.call('labels.export', { dataset_id: id, path: file })).toEqual({ labels: 3, path: file });
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Obj);
    expect(lines.map(({ ts: _ts, ...rest }) => rest)).toEqual([
      { key: 't0#0', label: 1, annotator: 'rules', kind: 'program' },
      { key: 't1#0', label: 0, annotator: 'rules', kind: 'program' },
      { key: 't3#0', label: 0, annotator: 'ana', kind: 'human', note: 'no refund issued' },
    ]);
    // The SDK recomputing from the exported labels gets the gold the app shows.
    const { rows: sdk } = attachLabels(structuredClone(rows), lines);
    const app = readDatasetRows(engine.ctx.db, id);
    expect(app.map((row) => [row.gold_reward, row.gold_kind])).toEqual(sdk.map((row) => [row.gold_reward, row.gold_kind]));
    const onlyAna = path.join(dir, 'ana.jsonl');
    expect((await engine.call('labels.export', { dataset_id: id, path: onlyAna, annotator: 'ana' })).labels).toBe(1);
  });
});

describe('labels.summary and labels.queue', () => {
  it('counts current labels per annotator and gives kappa per pair with its n', async () => {
    const dir = tempDir();
    const { engine, id } = await open(writeJsonl(path.join(dir, 'rows.jsonl'), gen(14)));
    const a = [1, 1, 0, 0, 1, 0];
    const b = [1, 0, 0, 0, 1, 1];
    for (let i = 0; i < 6; i++) {
      await engine.call('labels.append', { dataset_id: id, row_key: `t${i}#0`, annotator: 'ana', value: a[i] as 0 | 1 });
      await engine.call('labels.append', { dataset_id: id, row_key: `t${i}#0`, annotator: 'ben', value: b[i] as 0 | 1 });
    }
    await engine.call('labels.append', { dataset_id: id, row_key: 't6#0', annotator: 'ana', value: 1 });
    const summary = await engine.call('labels.summary', { dataset_id: id });
    expect(summary.annotators).toEqual([{ annotator: 'ana', labels: 7, pass: 4, fail: 3 }, { annotator: 'ben', labels: 6, pass: 3, fail: 3 }]);
    // tp 2, fp 1, fn 1, tn 2: po 4/6, pe 0.5 -> kappa 0.3333
    expect(summary.pairs).toEqual([{ a: 'ana', b: 'ben', n: 6, agreement: 0.6667, kappa: 0.3333 }]);
    expect(summary).toMatchObject({ rows_labeled: 7, multi_labeled: 6, disagreements: 2 });

    const queue = await engine.call('labels.queue', { dataset_id: id, annotator: 'ana', order: 'disagreements' });
    expect(queue.items.map((item) => [item.row_key, item.why])).toEqual(expect.arrayContaining([['t1#0', 'annotators disagree'], ['t5#0', 'annotators disagree']]));
    expect(queue.items.slice(0, 2).every((item) => item.why === 'annotators disagree')).toBe(true);
    expect(queue.progress).toMatchObject({ rows: 14, mine: 7, annotators: [{ annotator: 'ana', labeled: 7 }, { annotator: 'ben', labeled: 6 }] });
  });

  it('orders stratified (both judge classes early, reproducible), unlabeled first, filtered', async () => {
    const dir = tempDir();
    const { engine, id } = await open(writeJsonl(path.join(dir, 'rows.jsonl'), gen(40)));
    const first = await engine.call('labels.queue', { dataset_id: id, annotator: 'ana' });
    expect(first.total).toBe(40);
    expect(first.items.slice(0, 2).map((item) => item.reward).sort()).toEqual([0, 1]);
    expect((await engine.call('labels.queue', { dataset_id: id, annotator: 'ana' })).items).toEqual(first.items);
    await engine.call('labels.append', { dataset_id: id, row_key: first.items[0].row_key, annotator: 'ana', value: 1 });
    const unlabeled = await engine.call('labels.queue', { dataset_id: id, annotator: 'ana', order: 'unlabeled' });
    expect(unlabeled.items.at(-1)).toMatchObject({ row_key: first.items[0].row_key, my_label: 1, gold_state: 'pass' });
    expect(unlabeled.items[0].row_key).toBe(first.items[1].row_key);
    const fails = await engine.call('labels.queue', { dataset_id: id, annotator: 'ana', filters: { reward: 'fail', category: 'billing' } });
    expect(fails.total).toBe(10);
    expect(fails.items.every((item) => item.reward === 0)).toBe(true);
    const task = await engine.call('labels.queue', { dataset_id: id, filters: { task: 't3' } });
    expect(task.items.map((item) => item.scenario_id)).toEqual(Array(task.total).fill('t3'));
    // The filter choices are read after the first rows (in the background); a filtered call waits for them.
    expect(task.facets_ready).toBe(true);
    expect(task.facets.categories.sort()).toEqual(['billing', 'refund']);
    expect(task.facets.judge_statuses).toEqual(['ok']);
    const page = await engine.call('labels.queue', { dataset_id: id, annotator: 'ana', offset: 10, limit: 5 });
    expect(page.items.map((item) => item.ordinal)).toEqual(first.items.slice(10, 15).map((item) => item.ordinal));
  });

  it('opens from the outline in the order the full columns give, with the first rows, and takes in the keys of a first label', async () => {
    const dir = tempDir();
    const { engine, id } = await open(writeJsonl(path.join(dir, 'rows.jsonl'), gen(40).map((row, i) => (i % 9 === 8 ? { ...row, reward: 0.5 } : row))));
    const first = await engine.call('labels.queue', { dataset_id: id, annotator: 'ana', limit: 40, with_rows: 3 });
    // Nothing labeled: "unlabeled" keeps every row in the stratified order, read from the full columns.
    const fromColumns = await engine.call('labels.queue', { dataset_id: id, annotator: 'ana', order: 'unlabeled', limit: 40 });
    expect(fromColumns.items).toEqual(first.items);
    expect(first.items.at(-1)?.reward).toBe(0.5);
    expect(first.rows?.map((r) => r.ordinal)).toEqual(first.items.slice(0, 3).map((item) => item.ordinal));
    for (const { ordinal, row } of first.rows ?? []) expect(row).toEqual((await engine.call('datasets.row', { id, ordinal })).row);
    expect(first.progress).toMatchObject({ rows: 40, gold_rows: 0, mine: 0 });
    // The first label fills the imported rows' keys; the columns read before take them in.
    await engine.call('labels.append', { dataset_id: id, row_key: first.items[0].row_key, annotator: 'ana', value: 0 });
    const after = await engine.call('labels.queue', { dataset_id: id, annotator: 'ana', order: 'unlabeled', limit: 40 });
    expect(after.items.at(-1)).toMatchObject({ row_key: first.items[0].row_key, my_label: 0, gold_state: 'fail' });
    expect(after.progress).toMatchObject({ gold_rows: 1, mine: 1 });
    expect((await engine.call('labels.queue', { dataset_id: id, annotator: 'ana', limit: 1 })).items[0]).toMatchObject({ row_key: first.items[0].row_key, my_label: 0 });
  });

  it('aims at disagreements, then keeps each judge class at its share and covers tasks first', async () => {
    const dir = tempDir();
    const { engine, id } = await open(writeJsonl(path.join(dir, 'rows.jsonl'), gen(56)));
    await engine.call('labels.append', { dataset_id: id, row_key: 't0#1', annotator: 'ben', value: 1 });
    await engine.call('labels.append', { dataset_id: id, row_key: 't0#1', annotator: 'cho', value: 0 });
    const aimed = await engine.call('labels.queue', { dataset_id: id, annotator: 'ana', order: 'aimed', limit: 20 });
    expect(aimed.items[0]).toMatchObject({ row_key: 't0#1', why: expect.stringMatching(/disagree/) });
    // A quarter of the graded rows are judge-fail rows: a quarter of the queue, from the start.
    const rest = aimed.items.slice(1, 13);
    expect(rest.filter((item) => item.reward === 0)).toHaveLength(3);
    expect(aimed.items.slice(1, 5).filter((item) => item.reward === 0)).toHaveLength(1);
    // Seven tasks: the rows of each class come from different tasks first.
    const failTasks = rest.filter((item) => item.reward === 0).map((item) => item.scenario_id);
    expect(new Set(failTasks).size).toBe(failTasks.length);
  });
});
