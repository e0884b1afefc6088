// Only the rows that carry a gold, with it (judge trust needs nothing else): the rows that arrived with a gold,
// found once per dataset and row count (a scan), plus the rows that have app labels (through the row_key index).
// Kept per connection: a row is fetched and parsed once, and stamped again only when its labels change, so after
// one more label a stats worker re-reads one row, not the thousand labeled ones (nor the whole dataset).
import type { Db } from '../db/connection';
import { withGold } from './gold';
import { labelsByRowKey, type LabelRecord } from './labels';

type Obj = Record<string, unknown>;

interface Entry {
  rowKey: string | null;
  json: string;
  /** Which labels the stamped row reflects ("" none); null before the first stamp. */
  stamp: string | null;
  row: Obj | null;
}

interface DatasetCache {
  rowCount: number;
  ownGold: number[];
  byOrdinal: Map<number, Entry>;
  byKey: Map<string, number[]>;
}

const caches = new WeakMap<Db, Map<string, DatasetCache>>();

function datasetCache(db: Db, datasetId: string): DatasetCache {
  const rowCount = (db.prepare('SELECT row_count FROM datasets WHERE id = ?').pluck().get(datasetId) as number | undefined) ?? 0;
  let byDataset = caches.get(db);
  if (!byDataset) caches.set(db, (byDataset = new Map()));
  const hit = byDataset.get(datasetId);
  if (hit && hit.rowCount === rowCount) return hit;
  const ownGold = db.prepare("SELECT ordinal FROM rows WHERE dataset_id = ? AND gold_state != 'none'").pluck().all(datasetId) as number[];
  const fresh: DatasetCache = { rowCount, ownGold, byOrdinal: new Map(), byKey: new Map() };
  byDataset.set(datasetId, fresh);
  return fresh;
}

function remember(cache: DatasetCache, found: Array<[number, string | null, string]>): void {
  for (const [ordinal, rowKey, json] of found) {
    const known = cache.byOrdinal.get(ordinal);
    // A row kept before the dataset's first label had no row key yet (ensureRowKeys fills them then, adding no
    // row): it learns its key now, or its labels would never reach it.
    if (known && (known.rowKey !== null || rowKey === null)) continue;
    if (known) known.rowKey = rowKey;
    else cache.byOrdinal.set(ordinal, { rowKey, json, stamp: null, row: null });
    if (rowKey !== null) cache.byKey.set(rowKey, [...(cache.byKey.get(rowKey) ?? []), ordinal]);
  }
}

const stampOf = (labels: readonly LabelRecord[] | undefined) => (labels && labels.length ? `${labels.length}:${labels[labels.length - 1].label_id}` : '');

/** The dataset's rows that have a gold once their labels apply, in stored order. */
export function readLabeledRows(db: Db, datasetId: string): Obj[] {
  const labels = labelsByRowKey(db, datasetId);
  const cache = datasetCache(db, datasetId);
  const missingOrdinals = cache.ownGold.filter((ordinal) => !cache.byOrdinal.has(ordinal));
  const missingKeys = [...labels.keys()].filter((key) => !cache.byKey.has(key));
  // Two indexed lookups (by ordinal, by key), not one OR that would scan the dataset.
  if (missingOrdinals.length) {
    remember(cache, db.prepare('SELECT ordinal, row_key, row_json FROM rows WHERE dataset_id = ? AND ordinal IN (SELECT value FROM json_each(?))').raw().all(datasetId, JSON.stringify(missingOrdinals)) as Array<[number, string | null, string]>);
  }
  if (missingKeys.length) {
    remember(cache, db.prepare('SELECT ordinal, row_key, row_json FROM rows WHERE dataset_id = ? AND row_key IN (SELECT value FROM json_each(?))').raw().all(datasetId, JSON.stringify(missingKeys)) as Array<[number, string | null, string]>);
  }
  const wanted = new Set(cache.ownGold);
  for (const key of labels.keys()) for (const ordinal of cache.byKey.get(key) ?? []) wanted.add(ordinal);
  const out: Array<[number, Obj]> = [];
  for (const ordinal of wanted) {
    const entry = cache.byOrdinal.get(ordinal);
    if (!entry) continue;
    const own = entry.rowKey === null ? undefined : labels.get(entry.rowKey);
    const stamp = stampOf(own);
    if (entry.stamp !== stamp || entry.row === null) {
      entry.row = withGold(JSON.parse(entry.json) as Obj, own);
      entry.stamp = stamp;
    }
    if (entry.row.gold_reward !== undefined && entry.row.gold_reward !== null) out.push([ordinal, entry.row]);
  }
  return out.sort((a, b) => a[0] - b[0]).map(([, row]) => row);
}
