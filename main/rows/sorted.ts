// Sorted views of a dataset's rows without a sort index per column: bulk imports then maintain one index
// instead of four (twice as fast), and the order of a dataset is computed once per sort and version, then kept.
import type { RowSortKey } from '../../shared/api/datasets';
import type { Db } from '../db/connection';
import { datasetVersion } from '../db/changes';
import { goldStateWith } from './gold';
import { labelsByRowKey } from './labels';
import { storedRowKey } from './row-keys';

export type SortedKey = Exclude<RowSortKey, 'ordinal'>;

/** Columns of each SQL sort; ordinal breaks ties, so descending is exactly ascending reversed. Nulls sort first. */
const SORT_COLUMNS: Record<Exclude<SortedKey, 'gold'>, string> = {
  reward: 'reward, ordinal',
  reply_length: 'reply_length, ordinal',
  task: 'scenario_id, rollout_index, ordinal',
};

/** Gold sorts unlabeled first, then fail, then pass. */
const GOLD_RANK: Record<string, number> = { none: 0, fail: 1, pass: 2 };

interface CachedOrder {
  version: number;
  ordinals: Int32Array;
}

const MAX_CACHED_ORDERS = 12;
const cache = new Map<string, CachedOrder>();

/** Gold is derived from labels, so its order is computed here rather than by SQL. */
function goldOrder(db: Db, datasetId: string): Int32Array {
  const rows = db.prepare('SELECT ordinal, gold_state, row_key FROM rows WHERE dataset_id = ? ORDER BY ordinal').all(datasetId) as Array<{ ordinal: number; gold_state: string; row_key: string | null }>;
  const labels = labelsByRowKey(db, datasetId);
  const rowJson = db.prepare('SELECT row_json FROM rows WHERE dataset_id = ? AND ordinal = ?').pluck();
  const rank = rows.map((row) => {
    if (labels.size === 0) return GOLD_RANK[row.gold_state] ?? 0;
    const json = () => rowJson.get(datasetId, row.ordinal) as string;
    const own = labels.get(storedRowKey(row.row_key, json));
    return GOLD_RANK[own ? goldStateWith(json(), own) : row.gold_state] ?? 0;
  });
  const order = rows.map((_, i) => i).sort((a, b) => rank[a] - rank[b] || rows[a].ordinal - rows[b].ordinal);
  return Int32Array.from(order, (i) => rows[i].ordinal);
}

export function sortedOrdinals(db: Db, datasetId: string, sort: SortedKey): Int32Array {
  const key = `${db.name}\u0000${datasetId}\u0000${sort}`;
  const version = datasetVersion(db, datasetId) ?? -1;
  const hit = cache.get(key);
  if (hit && hit.version === version) {
    cache.delete(key);
    cache.set(key, hit);
    return hit.ordinals;
  }
  const ordinals =
    sort === 'gold'
      ? goldOrder(db, datasetId)
      : Int32Array.from(db.prepare(`SELECT ordinal FROM rows WHERE dataset_id = ? ORDER BY ${SORT_COLUMNS[sort]}`).pluck().all(datasetId) as number[]);
  cache.set(key, { version, ordinals });
  if (cache.size > MAX_CACHED_ORDERS) cache.delete(cache.keys().next().value as string);
  return ordinals;
}

/** The ordinals of one page of a sorted view. */
export function sortedPage(db: Db, datasetId: string, sort: SortedKey, descending: boolean, offset: number, limit: number): number[] {
  const ordinals = sortedOrdinals(db, datasetId, sort);
  const page: number[] = [];
  for (let i = offset; i < Math.min(offset + limit, ordinals.length); i++) {
    page.push(descending ? ordinals[ordinals.length - 1 - i] : ordinals[i]);
  }
  return page;
}
