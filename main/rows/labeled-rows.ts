// Only the rows that carry a gold, with it (judge trust needs nothing else): the rows that arrived with a gold,
// found once per dataset and row count (a scan), plus the rows that have app labels (through the row_key index).
// So a stats worker re-reads a handful of rows after each label, not the whole dataset.
import type { Db } from '../db/connection';
import { withGold } from './gold';
import { labelsByRowKey } from './labels';

type Obj = Record<string, unknown>;

const importedGold = new WeakMap<Db, Map<string, { rowCount: number; ordinals: number[] }>>();

function ordinalsWithOwnGold(db: Db, datasetId: string): number[] {
  const rowCount = (db.prepare('SELECT row_count FROM datasets WHERE id = ?').pluck().get(datasetId) as number | undefined) ?? 0;
  let byDataset = importedGold.get(db);
  if (!byDataset) importedGold.set(db, (byDataset = new Map()));
  const hit = byDataset.get(datasetId);
  if (hit && hit.rowCount === rowCount) return hit.ordinals;
  const ordinals = db.prepare("SELECT ordinal FROM rows WHERE dataset_id = ? AND gold_state != 'none'").pluck().all(datasetId) as number[];
  byDataset.set(datasetId, { rowCount, ordinals });
  return ordinals;
}

/** The dataset's rows that have a gold once their labels apply, in stored order. */
export function readLabeledRows(db: Db, datasetId: string): Obj[] {
  const labels = labelsByRowKey(db, datasetId);
  const own = ordinalsWithOwnGold(db, datasetId);
  // Two indexed lookups (by ordinal, by key), not one OR that would scan the dataset.
  const byOrdinal = db.prepare('SELECT ordinal, row_key, row_json FROM rows WHERE dataset_id = ? AND ordinal IN (SELECT value FROM json_each(?))').raw();
  const byKey = db.prepare('SELECT ordinal, row_key, row_json FROM rows WHERE dataset_id = ? AND row_key IN (SELECT value FROM json_each(?))').raw();
  const found = new Map<number, [number, string | null, string]>();
  for (const row of byOrdinal.all(datasetId, JSON.stringify(own)) as Array<[number, string | null, string]>) found.set(row[0], row);
  for (const row of byKey.all(datasetId, JSON.stringify([...labels.keys()])) as Array<[number, string | null, string]>) found.set(row[0], row);
  const out: Obj[] = [];
  for (const [, rowKey, json] of [...found.values()].sort((a, b) => a[0] - b[0])) {
    const row = withGold(JSON.parse(json) as Obj, rowKey === null ? undefined : labels.get(rowKey));
    if (row.gold_reward !== undefined && row.gold_reward !== null) out.push(row);
  }
  return out;
}
