// Sorted views of a dataset's rows without a sort index per column: bulk imports then maintain one index
// instead of four (twice as fast), and the order of a dataset is computed once per sort, then kept.
import type { RowSortKey } from '../../../shared/api/datasets';
import type { Db } from '../connection';

/** Columns of each sort; ordinal breaks ties, so descending is exactly ascending reversed. Nulls sort first. */
const SORT_COLUMNS: Record<Exclude<RowSortKey, 'ordinal'>, string> = {
  reward: 'reward, ordinal',
  reply_length: 'reply_length, ordinal',
  task: 'scenario_id, rollout_index, ordinal',
};

interface CachedOrder {
  version: string;
  ordinals: Int32Array;
}

const MAX_CACHED_ORDERS = 12;
const cache = new Map<string, CachedOrder>();

/** Changes whenever rows are added to or removed from the dataset (rows are never edited in place). */
function datasetVersion(db: Db, datasetId: string): string {
  const row = db.prepare('SELECT COUNT(*) AS n, MAX(id) AS last FROM rows WHERE dataset_id = ?').get(datasetId) as { n: number; last: number | null };
  return `${row.n}:${row.last ?? 0}`;
}

export function sortedOrdinals(db: Db, datasetId: string, sort: Exclude<RowSortKey, 'ordinal'>): Int32Array {
  const key = `${db.name}\u0000${datasetId}\u0000${sort}`;
  const version = datasetVersion(db, datasetId);
  const hit = cache.get(key);
  if (hit && hit.version === version) {
    cache.delete(key);
    cache.set(key, hit);
    return hit.ordinals;
  }
  const ordinals = Int32Array.from(
    db.prepare(`SELECT ordinal FROM rows WHERE dataset_id = ? ORDER BY ${SORT_COLUMNS[sort]}`).pluck().all(datasetId) as number[],
  );
  cache.set(key, { version, ordinals });
  if (cache.size > MAX_CACHED_ORDERS) cache.delete(cache.keys().next().value as string);
  return ordinals;
}

/** The ordinals of one page of a sorted view. */
export function sortedPage(db: Db, datasetId: string, sort: Exclude<RowSortKey, 'ordinal'>, descending: boolean, offset: number, limit: number): number[] {
  const ordinals = sortedOrdinals(db, datasetId, sort);
  const page: number[] = [];
  for (let i = offset; i < Math.min(offset + limit, ordinals.length); i++) {
    page.push(descending ? ordinals[ordinals.length - 1 - i] : ordinals[i]);
  }
  return page;
}
