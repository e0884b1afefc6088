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
});
