// An imported dataset has no row keys until it is labeled (rows/row-keys.ts). Opening its label queue fills them a
// small page per turn of the event loop, so the first label does not fill the whole dataset before it is stored;
// closing the engine mid-fill loses nothing (the first label fills what is left). And readLabeledRows, which keeps
// the rows it parsed per connection, follows the keys: a row kept before they were filled learns its key.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../main/db/connection';
import { createEngine, type Engine } from '../../../main/engine/engine';
import { readLabeledRows } from '../../../main/rows/index';
import { tempDir, writeJsonl } from '../../helpers/temp';

const prelabeled = { gold_reward: 1, gold_kind: 'program', gold_labels: [{ label: 1, annotator: 'checker', kind: 'program', ts: 1700000000 }] };
const row = (i: number, extra: Record<string, unknown> = {}) => ({ schema_version: '1', prompt: `p${i}`, steps: [], final_text: `reply ${i}`, scenario_id: `t${i}`, rollout_index: 0, reward: i % 2, ...extra });

let engine: Engine | null = null;
let reader: Db | null = null;
afterEach(async () => {
  reader?.close();
  reader = null;
  await engine?.close();
  engine = null;
});

/** Imports the rows through the engine; a second connection (`reader`) reads the same database. */
async function imported(rows: unknown[]): Promise<{ dbPath: string; id: string }> {
  const dir = tempDir();
  const dbPath = path.join(dir, 'desk.db');
  engine = createEngine({ dbPath });
  const result = await engine.call('datasets.importFile', { path: writeJsonl(path.join(dir, 'rows.jsonl'), rows), name: 'keys' });
  reader = openDatabase(dbPath);
  return { dbPath, id: result.dataset_id! };
}

const unkeyed = (db: Db, id: string) => db.prepare('SELECT count(*) FROM rows WHERE dataset_id = ? AND row_key IS NULL').pluck().get(id) as number;

async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 20))) if (check()) return true;
  return check();
}

describe('row keys filled once the label queue opens', () => {
  const ROWS = 3000;
  const many = () => Array.from({ length: ROWS }, (_, i) => row(i));

  it('fills every key in the background after the first page, each as attach_labels keys it, and labels then land', async () => {
    const { id } = await imported(many());
    expect(unkeyed(reader!, id)).toBe(ROWS);
    const page = await engine!.call('labels.queue', { dataset_id: id, annotator: 'ann', limit: 5 });
    expect(page.items).toHaveLength(5);
    expect(await until(() => unkeyed(reader!, id) === 0, 10_000)).toBe(true);
    const keys = reader!.prepare('SELECT ordinal, row_key FROM rows WHERE dataset_id = ? ORDER BY ordinal').raw().all(id) as Array<[number, string]>;
    expect(keys.every(([ordinal, key]) => key === `t${ordinal}#0`)).toBe(true);
    const label = await engine!.call('labels.append', { dataset_id: id, row_key: 't7#0', annotator: 'ann', kind: 'human', value: 1 });
    expect(label.version).toBeGreaterThan(0);
    expect((await engine!.call('datasets.row', { id, ordinal: 7 })).row).toMatchObject({ gold_reward: 1, gold_kind: 'human' });
  });

  it('loses nothing when the engine closes during the fill: the first label after a reopen fills the rest', async () => {
    const { dbPath, id } = await imported(many());
    await engine!.call('labels.queue', { dataset_id: id, annotator: 'ann', limit: 5 });
    expect(await until(() => unkeyed(reader!, id) < ROWS, 10_000)).toBe(true);
    await engine!.close();
    engine = createEngine({ dbPath });
    await engine.call('labels.append', { dataset_id: id, row_key: `t${ROWS - 1}#0`, annotator: 'ann', kind: 'human', value: 0 });
    expect(unkeyed(reader!, id)).toBe(0);
  });
});

describe('the labeled rows a connection keeps', () => {
  it('see a label given to a row that arrived with its gold, after they were kept and before its key was filled', async () => {
    const { id } = await imported([row(0, prelabeled), row(1), row(2, prelabeled)]);
    expect(readLabeledRows(reader!, id).map((r) => [r.scenario_id, r.gold_reward])).toEqual([['t0', 1], ['t2', 1]]);
    // A human 0 against the program's 1 is a tie (no gold: the row leaves), and a row without gold gains one.
    await engine!.call('labels.append', { dataset_id: id, row_key: 't0#0', annotator: 'ann', kind: 'human', value: 0 });
    await engine!.call('labels.append', { dataset_id: id, row_key: 't1#0', annotator: 'ann', kind: 'human', value: 1 });
    expect(readLabeledRows(reader!, id).map((r) => [r.scenario_id, r.gold_reward, r.gold_kind])).toEqual([
      ['t1', 1, 'human'],
      ['t2', 1, 'program'],
    ]);
  });
});
