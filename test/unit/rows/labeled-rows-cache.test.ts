// readLabeledRows keeps the rows it parsed per connection (judge trust re-reads one row after a label, not a
// thousand). What it kept must follow every write: here a row that arrived with a gold is labeled again after the
// cache was filled, and the first label also filled the dataset's row keys (a change that adds no row).
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../main/db/connection';
import { createEngine, type Engine } from '../../../main/engine/engine';
import { readLabeledRows } from '../../../main/rows/index';
import { tempDir, writeJsonl } from '../../helpers/temp';

const prelabeled = { gold_reward: 1, gold_kind: 'program', gold_labels: [{ label: 1, annotator: 'checker', kind: 'program', ts: 1700000000 }] };
const row = (i: number, extra: Record<string, unknown> = {}) => ({ schema_version: '1', prompt: `p${i}`, steps: [], final_text: `reply ${i}`, scenario_id: `t${i}`, rollout_index: 0, reward: 1, ...extra });

let engine: Engine | null = null;
let reader: Db | null = null;
afterEach(async () => {
  reader?.close();
  reader = null;
  await engine?.close();
  engine = null;
});

describe('the labeled rows a connection keeps', () => {
  it('see a label given to a row that arrived with its gold, after the cache was filled', async () => {
    const dir = tempDir();
    const dbPath = path.join(dir, 'desk.db');
    engine = createEngine({ dbPath });
    const file = writeJsonl(path.join(dir, 'rows.jsonl'), [row(0, prelabeled), row(1), row(2, prelabeled)]);
    const imported = await engine.call('datasets.importFile', { path: file, name: 'gold' });
    const id = imported.dataset_id!;
    reader = openDatabase(dbPath);

    expect(readLabeledRows(reader, id).map((r) => [r.scenario_id, r.gold_reward])).toEqual([['t0', 1], ['t2', 1]]);
    // A human 0 against the program's 1 is a tie (no gold: the row leaves), and a row without gold gains one.
    await engine.call('labels.append', { dataset_id: id, row_key: 't0#0', annotator: 'ann', kind: 'human', value: 0 });
    await engine.call('labels.append', { dataset_id: id, row_key: 't1#0', annotator: 'ann', kind: 'human', value: 1 });
    expect(readLabeledRows(reader, id).map((r) => [r.scenario_id, r.gold_reward, r.gold_kind])).toEqual([
      ['t1', 1, 'human'],
      ['t2', 1, 'program'],
    ]);
  });
});
