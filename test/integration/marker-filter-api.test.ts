// The label queue's marker filter through the engine: rows whose marker NAME is 0 or 1, read off marker_flags
// (filled for an imported dataset on first use, rewritten by a stamp), the names offered as facets.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../main/engine/engine';
import { tempDir, writeJsonl } from '../helpers/temp';

let engine: Engine | null = null;
afterEach(async () => {
  await engine?.close();
  engine = null;
});

// Row i: judge_ok is 0 on every third row, 1 elsewhere, absent on row 5 and text (not filterable) on row 7;
// every fourth row apologises (the stamp's no_apology = 0).
const gen = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    scenario_id: `t${i % 4}`,
    rollout_index: Math.floor(i / 4),
    prompt: `p${i}`,
    final_text: i % 4 === 0 ? `I apologize, reply ${i}` : `reply ${i}`,
    reward: i % 2,
    ...(i === 5 ? {} : { markers: { judge_ok: i === 7 ? 'yes' : i % 3 === 0 ? 0 : 1 } }),
  }));

async function open(n: number) {
  const dir = tempDir();
  engine = createEngine({ dbPath: path.join(dir, 'desk.db') });
  const { dataset_id: id } = await engine.call('datasets.importFile', { path: writeJsonl(path.join(dir, 'rows.jsonl'), gen(n)), name: 'marked' });
  return { engine, id: id as string };
}

const ordinalsOf = (items: Array<{ ordinal: number }>) => items.map((item) => item.ordinal).sort((a, b) => a - b);

describe('labels.queue marker filter', () => {
  it('keeps only the rows with the marker at the asked value, with the names as facets', async () => {
    const { engine, id } = await open(12);
    const zero = await engine.call('labels.queue', { dataset_id: id, filters: { marker: { name: 'judge_ok', value: 0 } } });
    expect(ordinalsOf(zero.items)).toEqual([0, 3, 6, 9]);
    expect(zero.total).toBe(4);
    const one = await engine.call('labels.queue', { dataset_id: id, filters: { marker: { name: 'judge_ok', value: 1 } } });
    expect(ordinalsOf(one.items)).toEqual([1, 2, 4, 8, 10, 11]);
    expect(one.facets.markers).toEqual(['judge_ok']);
    // With another filter: both hold.
    const oddFail = await engine.call('labels.queue', { dataset_id: id, filters: { marker: { name: 'judge_ok', value: 0 }, reward: 'pass' } });
    expect(ordinalsOf(oddFail.items)).toEqual([3, 9]);
    // A name no row carries: an empty queue, not an error.
    expect((await engine.call('labels.queue', { dataset_id: id, filters: { marker: { name: 'nope', value: 0 } } })).total).toBe(0);
  });

  it('filters on stamped markers once the dataset is stamped, and re-reads them after', async () => {
    const { engine, id } = await open(12);
    const before = await engine.call('labels.queue', { dataset_id: id, filters: { marker: { name: 'no_apology', value: 0 } } });
    expect(before.total).toBe(0);
    const stamp = await engine.call('datasets.stampMarkers', { id });
    expect(stamp).toMatchObject({ rows: 12, stamped: 12 });
    const after = await engine.call('labels.queue', { dataset_id: id, filters: { marker: { name: 'no_apology', value: 0 } } });
    expect(ordinalsOf(after.items)).toEqual([0, 4, 8]);
    expect(after.facets.markers).toEqual(expect.arrayContaining(['judge_ok', 'no_apology', 'argument_grounding', 'honest_claims']));
    // The judge's own marker survived the stamp.
    expect(ordinalsOf((await engine.call('labels.queue', { dataset_id: id, filters: { marker: { name: 'judge_ok', value: 0 } } })).items)).toEqual([0, 3, 6, 9]);
    expect((await engine.call('datasets.stampMarkers', { id })).stamped).toBe(0);
  });

  it('filters the rows table (datasets.rows) the same way, in any sort', async () => {
    const { engine, id } = await open(12);
    const marker = { name: 'judge_ok', value: 0 } as const;
    const plain = await engine.call('datasets.rows', { id, marker });
    expect(plain.total).toBe(4);
    expect(plain.rows.map((row) => row.ordinal)).toEqual([0, 3, 6, 9]);
    const down = await engine.call('datasets.rows', { id, marker, descending: true, offset: 1, limit: 2 });
    expect(down.rows.map((row) => row.ordinal)).toEqual([6, 3]);
    // By reward (row i has reward i % 2): the odd rows last, ordinal breaking ties.
    const byReward = await engine.call('datasets.rows', { id, marker, sort: 'reward' });
    expect(byReward.rows.map((row) => row.ordinal)).toEqual([0, 6, 3, 9]);
    expect((await engine.call('datasets.rows', { id })).total).toBe(12);
  });

  it('refuses a marker filter with no name or a value other than 0 or 1', async () => {
    const { engine, id } = await open(4);
    await expect(engine.call('labels.queue', { dataset_id: id, filters: { marker: { name: '', value: 0 } } })).rejects.toMatchObject({ code: 'bad_input' });
    await expect(engine.callRaw('labels.queue', { dataset_id: id, filters: { marker: { name: 'judge_ok', value: 0.5 } } })).rejects.toMatchObject({ code: 'bad_input' });
  });
});
