// A statistics worker reads rows on its own read-only connection through the rows module: it sees the gold of
// labels appended by the engine, and its cache follows the dataset's version (no other stamp).
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../../main/engine/engine';
import { RowReader } from '../../../main/stats-workers/row-reader';
import { tempDir, writeJsonl } from '../../helpers/temp';

let engine: Engine | null = null;
let reader: RowReader | null = null;
afterEach(async () => {
  reader?.close();
  await engine?.close();
  engine = reader = null;
});

describe('RowReader (statistics workers)', () => {
  it('sees appended labels as gold, and re-reads only when the version moved', async () => {
    const dir = tempDir();
    const dbPath = path.join(dir, 'desk.db');
    engine = createEngine({ dbPath });
    const file = writeJsonl(path.join(dir, 'rows.jsonl'), [{ schema_version: '1', prompt: 'p', steps: [], final_text: 'f', scenario_id: 't', rollout_index: 0, reward: 1 }]);
    const id = (await engine.call('datasets.importFile', { path: file, name: 'x' })).dataset_id as string;
    reader = new RowReader(dbPath);
    const before = reader.resolve({ dataset_id: id });
    expect(before[0]).not.toHaveProperty('gold_reward');
    expect(reader.resolve({ dataset_id: id })).toBe(before); // cached: same version

    await engine.call('labels.append', { dataset_id: id, row_key: 't#0', annotator: 'ann', value: 0 });
    const after = reader.resolve({ dataset_id: id });
    expect(after).not.toBe(before);
    expect(after[0]).toMatchObject({ gold_reward: 0, gold_kind: 'human', gold_labels: [{ label: 0, annotator: 'ann', kind: 'human' }] });
    expect(() => reader!.resolve({ dataset_id: 'ds-missing' })).toThrow(/no dataset or run with id "ds-missing"/);
  });

  it('hands a statistic only the fields it reads, gold included, and serves fewer fields from rows read with more', async () => {
    const dir = tempDir();
    const dbPath = path.join(dir, 'desk.db');
    engine = createEngine({ dbPath });
    const rows = Array.from({ length: 30 }, (_, i) => ({ schema_version: '1', prompt: `p${i}`, steps: [{ tool: 't', arguments: { i }, result: 'ok' }], final_text: `f${i}`, scenario_id: `t${i % 5}`, rollout_index: Math.floor(i / 5), reward: i % 2, messages: [{ role: 'user', content: `p${i}` }] }));
    const file = writeJsonl(path.join(dir, 'rows.jsonl'), rows);
    const id = (await engine.call('datasets.importFile', { path: file, name: 'x' })).dataset_id as string;
    await engine.call('labels.append', { dataset_id: id, row_key: 't0#0', annotator: 'ann', value: 1 });
    reader = new RowReader(dbPath);
    const wanted = ['gold_reward', 'reward', 'scenario_id'];
    const pick = (row: unknown) => Object.fromEntries(Object.entries(row as Record<string, unknown>).filter(([key]) => wanted.includes(key)));
    const whole = reader.resolve({ dataset_id: id });
    expect(reader.resolve({ dataset_id: id }, wanted)).toBe(whole); // whole rows hold every field
    reader.close();
    reader = new RowReader(dbPath);
    const projected = reader.resolve({ dataset_id: id }, wanted);
    expect(projected).toEqual(whole.map(pick));
    expect(projected[0]).toEqual({ scenario_id: 't0', reward: 0, gold_reward: 1 });
    expect(reader.resolve({ dataset_id: id }, ['reward'])).toBe(projected); // a subset: the same rows
    expect(reader.resolve({ dataset_id: id }, ['reward', 'prompt'])).not.toBe(projected);
    const seen: unknown[] = [];
    const fold = { start: () => seen, add: (list: unknown[], row: unknown) => void list.push({ ...(row as object) }), merge: (a: unknown[]) => a, keepKey: null, reads: wanted, rarely: [] };
    reader.close();
    reader = new RowReader(dbPath);
    await reader.fold(id, fold);
    expect(seen).toEqual(whole.map(pick));
  });
});
