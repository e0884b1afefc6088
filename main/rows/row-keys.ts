// Row keys of imported rows are filled when a dataset is first labeled (see the row_key column in columns.ts):
// a pass over the rows still without a key, a page at a time; or gradually, once its label queue opens. Once a
// dataset has labels every row of it has a key (rows appended later come from runs and grading, which carry
// theirs), so it is not asked again. Filling a derived column changes nothing a reader sees, so it bumps no version.
import { rowKey } from '../../shared/stats/keys';
import type { Db } from '../db/connection';
import { hasLabels } from './labels';

type Obj = Record<string, unknown>;

const PAGE_ROWS = 5000;

/** Fills the keys of up to `limit` rows of the dataset still without one, in one transaction; returns how many. */
function keyFiller(db: Db, datasetId: string): (limit: number) => number {
  const page = db.prepare('SELECT id, row_json FROM rows WHERE dataset_id = ? AND row_key IS NULL LIMIT ?');
  const fill = db.prepare('UPDATE rows SET row_key = ? WHERE id = ?');
  const fillPage = db.transaction((rows: Array<{ id: number; row_json: string }>) => {
    for (const row of rows) fill.run(rowKey(JSON.parse(row.row_json) as Obj), row.id);
  });
  return (limit) => {
    const missing = page.all(datasetId, limit) as Array<{ id: number; row_json: string }>;
    if (missing.length > 0) fillPage(missing);
    return missing.length;
  };
}

/** Fills row_key on every row of the dataset that has none yet; returns how many were filled. */
export function ensureRowKeys(db: Db, datasetId: string): number {
  if (hasLabels(db, datasetId)) return 0;
  const fillUpTo = keyFiller(db, datasetId);
  let filled = 0;
  for (let page = fillUpTo(PAGE_ROWS); page > 0; page = fillUpTo(PAGE_ROWS)) filled += page;
  return filled;
}

/** Rows a gradual fill writes per turn of the event loop: a few ms, so a label or a page is not held up. */
const GRADUAL_PAGE_ROWS = 500;
const filling = new WeakMap<Db, Set<string>>();

/**
 * The same fill, a small page per turn of the event loop, for a dataset about to be labeled (its label queue was
 * opened): its first label then finds the keys there, instead of filling them all before it is stored (about 1 s
 * of the engine's thread at 100k rows). Stops once the dataset has labels (the first label's own fill finished the
 * rest), when the connection closes, or at an error (the label's fill is still there to do the work).
 */
export async function fillRowKeysGradually(db: Db, datasetId: string): Promise<void> {
  let running = filling.get(db);
  if (!running) filling.set(db, (running = new Set()));
  if (running.has(datasetId)) return;
  running.add(datasetId);
  try {
    const fillUpTo = keyFiller(db, datasetId);
    while (db.open && !hasLabels(db, datasetId) && fillUpTo(GRADUAL_PAGE_ROWS) > 0) {
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  } catch {
    // a closed or busy database: the first label fills what is left
  } finally {
    running.delete(datasetId);
  }
}

/** A stored row's key: its column, else derived from its JSON (an imported row not labeled yet). */
export function storedRowKey(rowKeyColumn: string | null, json: string | (() => string)): string {
  if (rowKeyColumn !== null) return rowKeyColumn;
  return rowKey(JSON.parse(typeof json === 'string' ? json : json()) as Obj);
}
