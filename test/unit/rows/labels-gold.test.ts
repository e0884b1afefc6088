// Labels are appended records; the gold every reader sees (row view, rows page and its gold sort, statistics
// rows, export) is derived from them exactly as attach_labels derives it, after the labels a row arrived with.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../main/engine/engine';
import { readDatasetRows } from '../../../main/rows/index';
import { attachLabels } from '../../../shared/stats/labels';
import { tempDir, writeJsonl } from '../../helpers/temp';

const row = (i: number, extra: Record<string, unknown> = {}) => ({ schema_version: '1', prompt: `p${i}`, steps: [], final_text: `reply ${i}`, scenario_id: `t${i}`, rollout_index: 0, reward: i % 2, ...extra });
const prelabeled = { gold_reward: 1, gold_kind: 'program', gold_labels: [{ label: 1, annotator: 'checker', kind: 'program', ts: 1700000000 }] };

let engine: Engine | null = null;
afterEach(async () => {
  await engine?.close();
  engine = null;
});

async function importRows(rows: unknown[]): Promise<{ engine: Engine; id: string; dir: string }> {
  const dir = tempDir();
  engine = createEngine({ dbPath: path.join(dir, 'desk.db') });
  const file = writeJsonl(path.join(dir, 'rows.jsonl'), rows);
  const result = await engine.call('datasets.importFile', { path: file, name: 'labels' });
  return { engine, id: result.dataset_id as string, dir };
}

describe('labels and the gold derived from them', () => {
  it('appends labels after the ones a row arrived with, and every reader sees attach_labels gold', async () => {
    const rows = [row(0), row(1, prelabeled), row(2), row(3)];
    const { engine, id, dir } = await importRows(rows);
    const seen: Array<{ dataset_id: string; version: number }> = [];
    engine.on('rows.changed', (event) => seen.push(event));
    const append = (rowKey: string, annotator: string, value: 0 | 1 | null, kind: 'human' | 'model' = 'human', note?: string) =>
      engine.call('labels.append', { dataset_id: id, row_key: rowKey, annotator, kind, value, note });

    const first = await append('t0#0', 'ann', 0, 'human', 'wrong order');
    expect(seen.at(-1)).toEqual({ dataset_id: id, version: first.version });
    await append('t1#0', 'ann', 0); // 1 (program, carried) + 0 (human): a tie, no gold
    await append('t2#0', 'ann', 1);
    await append('t2#0', 'bot', 1, 'model'); // human + model reads as model
    await append('t3#0', 'ann', null); // a skip: kept, no vote
    const last = await append('t3#0', 'bot', 0, 'model');
    expect(last.version).toBeGreaterThan(first.version);

    // The same labels through the SDK's own derivation.
    const { rows: expected } = attachLabels(structuredClone(rows), [
      { key: 't0#0', label: 0, annotator: 'ann', kind: 'human', note: 'wrong order', ts: 1 },
      { key: 't1#0', label: 0, annotator: 'ann', kind: 'human', ts: 1 },
      { key: 't2#0', label: 1, annotator: 'ann', kind: 'human', ts: 1 },
      { key: 't2#0', label: 1, annotator: 'bot', kind: 'model', ts: 1 },
      { key: 't3#0', label: 0, annotator: 'bot', kind: 'model', ts: 1 },
    ]);
    const withoutTs = (value: Record<string, unknown>) => ({ ...value, gold_labels: (value.gold_labels as Array<Record<string, unknown>> | undefined)?.map(({ ts: _ts, ...rest }) => rest) });

    const viewed = await Promise.all(rows.map((_, ordinal) => engine.call('datasets.row', { id, ordinal })));
    viewed.forEach((view, i) => expect(withoutTs(view.row)).toEqual(withoutTs(expected[i])));
    expect(viewed[1].row.gold_labels).toHaveLength(2);
    expect(viewed[1].row).not.toHaveProperty('gold_reward');
    expect(viewed[2].row).toMatchObject({ gold_reward: 1, gold_kind: 'model' });
    expect(viewed[3].row).toMatchObject({ gold_reward: 0, gold_kind: 'model' });
    expect((viewed[0].row.gold_labels as Array<{ ts: number }>)[0].ts).toBeGreaterThan(1.7e9);

    const page = await engine.call('datasets.rows', { id });
    expect(page.rows.map((item) => [item.row_key, item.gold_state])).toEqual([['t0#0', 'fail'], ['t1#0', 'none'], ['t2#0', 'pass'], ['t3#0', 'fail']]);
    const byGold = await engine.call('datasets.rows', { id, sort: 'gold' });
    expect(byGold.rows.map((item) => item.ordinal)).toEqual([1, 0, 3, 2]);

    const statRows = readDatasetRows(engine.ctx.db, id);
    statRows.forEach((stat, i) => expect(withoutTs(stat)).toEqual(withoutTs(expected[i])));

    const out = path.join(dir, 'out.jsonl');
    expect(await engine.call('datasets.export', { id, path: out })).toEqual({ rows: 4, path: out });
    const exported = fs.readFileSync(out, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    exported.forEach((one, i) => expect(withoutTs(one)).toEqual(withoutTs(expected[i])));
    const text = await engine.call('datasets.exportText', { id, offset: 1, limit: 2 });
    expect(text).toMatchObject({ rows: 2, done: false });
    expect(text.text).toBe(fs.readFileSync(out, 'utf8').split('\n').slice(1, 3).join('\n') + '\n');
  });

  it('gives imported rows their keys when the dataset is first labeled, and finds a row by key through the index', async () => {
    const { engine, id } = await importRows([row(0), row(1, { rollout_id: 'roll-1' }), { schema_version: '1', prompt: 'bare', steps: [], final_text: 'x' }]);
    const db = engine.ctx.db;
    const stored = () => db.prepare('SELECT row_key FROM rows WHERE dataset_id = ? ORDER BY ordinal').pluck().all(id);
    expect(stored()).toEqual([null, null, null]); // an import does not index keys
    const listed = (await engine.call('datasets.rows', { id })).rows.map((item) => item.row_key);
    expect(listed).toEqual(['t0#0', 'roll-1', expect.stringMatching(/^[0-9a-f]{16}$/)]);
    expect((await engine.call('datasets.row', { id, ordinal: 2 })).row).toMatchObject({ prompt: 'bare' });
    await engine.call('labels.append', { dataset_id: id, row_key: listed[2] as string, annotator: 'a', value: 1 });
    expect(stored()).toEqual(listed);
    const plan = db.prepare("EXPLAIN QUERY PLAN SELECT ordinal FROM rows WHERE dataset_id = ? AND row_key = ?").all(id, 'x') as Array<{ detail: string }>;
    expect(plan.map((step) => step.detail).join(' ')).toMatch(/rows_by_key/);
    expect((await engine.call('datasets.row', { id, ordinal: 2 })).row).toMatchObject({ gold_reward: 1, gold_kind: 'human' });
  });

  it('lists labels in append order, by annotator or row, never changed', async () => {
    const { engine, id } = await importRows([row(0), row(1)]);
    await engine.call('labels.append', { dataset_id: id, row_key: 't0#0', annotator: 'a', value: 1 });
    await engine.call('labels.append', { dataset_id: id, row_key: 't1#0', annotator: 'b', kind: 'verifier' as never, value: 0 });
    await engine.call('labels.append', { dataset_id: id, row_key: 't0#0', annotator: 'a', value: 0, note: 'changed my mind' });
    const all = await engine.call('labels.list', { dataset_id: id });
    expect(all.labels.map((label) => [label.row_key, label.annotator, label.kind, label.value, label.note])).toEqual([
      ['t0#0', 'a', 'human', 1, null],
      ['t1#0', 'b', 'program', 0, null],
      ['t0#0', 'a', 'human', 0, 'changed my mind'],
    ]);
    expect((await engine.call('labels.list', { dataset_id: id, annotator: 'b' })).labels).toHaveLength(1);
    expect((await engine.call('labels.list', { dataset_id: id, row_key: 't0#0' })).labels).toHaveLength(2);
    // An annotator's latest label is their current one: the 0 replaced the 1 (both records stay listed).
    expect((await engine.call('datasets.row', { id, ordinal: 0 })).row).toMatchObject({ gold_reward: 0, gold_labels: [{ label: 0, annotator: 'a' }] });
  });

  it('refuses a label for no row, for a key two rows share, or of an unknown kind, and writes nothing', async () => {
    const { engine, id } = await importRows([row(0), row(1, { scenario_id: 't0' })]);
    await expect(engine.call('labels.append', { dataset_id: id, row_key: 'nope', annotator: 'a', value: 1 })).rejects.toMatchObject({ code: 'not_found' });
    await expect(engine.call('labels.append', { dataset_id: id, row_key: 't0#0', annotator: 'a', value: 1 })).rejects.toMatchObject({ code: 'conflict', message: expect.stringMatching(/more than one row.*rows 0, 1/) });
    await expect(engine.call('labels.append', { dataset_id: id, row_key: 't0#0', annotator: 'a', kind: 'crowd' as never, value: 1 })).rejects.toMatchObject({ code: 'bad_input' });
    await expect(engine.call('labels.append', { dataset_id: 'ds-none', row_key: 't0#0', annotator: 'a', value: 1 })).rejects.toMatchObject({ code: 'not_found' });
    expect((await engine.call('labels.list', { dataset_id: id })).labels).toEqual([]);
  });
});
