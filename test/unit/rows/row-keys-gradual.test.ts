// An imported dataset has no row keys until it is labeled. Opening its label queue fills them a small page per turn
// of the event loop, so the first label does not fill the whole dataset before it is stored; the engine answers
// meanwhile, and closing it mid-fill loses nothing (the first label fills what is left).
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../main/db/connection';
import { createEngine, type Engine } from '../../../main/engine/engine';
import { tempDir, writeJsonl } from '../../helpers/temp';

const ROWS = 3000;
const row = (i: number) => ({ schema_version: '1', prompt: `p${i}`, steps: [], final_text: `reply ${i}`, scenario_id: `t${i}`, rollout_index: 0, reward: i % 2 });

let engine: Engine | null = null;
let reader: Db | null = null;
afterEach(async () => {
  reader?.close();
  reader = null;
  await engine?.close();
  engine = null;
});

async function importedDataset(): Promise<{ dbPath: string; id: string }> {
  const dir = tempDir();
  const dbPath = path.join(dir, 'desk.db');
  engine = createEngine({ dbPath });
  const file = writeJsonl(path.join(dir, 'rows.jsonl'), Array.from({ length: ROWS }, (_, i) => row(i)));
  const imported = await engine.call('datasets.importFile', { path: file, name: 'keys' });
  reader = openDatabase(dbPath);
  return { dbPath, id: imported.dataset_id! };
}

const unkeyed = (db: Db, id: string) => db.prepare('SELECT count(*) FROM rows WHERE dataset_id = ? AND row_key IS NULL').pluck().get(id) as number;

async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 20))) if (check()) return true;
  return check();
}

describe('row keys filled once the label queue opens', () => {
  it('fills every key in the background after the first page, each as attach_labels keys it, and labels then land', async () => {
    const { id } = await importedDataset();
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
    const { dbPath, id } = await importedDataset();
    await engine!.call('labels.queue', { dataset_id: id, annotator: 'ann', limit: 5 });
    expect(await until(() => unkeyed(reader!, id) < ROWS, 10_000)).toBe(true);
    await engine!.close();
    engine = createEngine({ dbPath });
    await engine.call('labels.append', { dataset_id: id, row_key: `t${ROWS - 1}#0`, annotator: 'ann', kind: 'human', value: 0 });
    expect(unkeyed(reader!, id)).toBe(0);
  });
});
