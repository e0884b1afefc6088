// Row keys of imported rows are filled when a dataset is first labeled (see the row_key column in columns.ts):
// a pass over the rows still without a key, a page at a time; or gradually, once its label queue opens. Once a
// dataset has labels every row of it has a key (rows appended later come from runs and grading, which carry
// theirs), so it is not asked again. Filling a derived column changes nothing a reader sees, so it bumps no version.
import { rowKey } from '../../shared/stats/keys';
import type { Db } from '../db/connection';
import { hasLabels } from './labels';
import { projection, projectText } from './row-projection';

type Obj = Record<string, unknown>;

/** What row_key reads of a row (keys.ts): its JSON is read for these alone (row-projection.ts). */
const ROW_KEY_FIELDS = ['rollout_id', 'scenario_id', 'rollout_index', 'prompt', 'final_text'];

/**
 * The row key of a stored row's JSON. On 1.7 KB rows (a conversation, tool calls) reading five fields costs about
 * half what JSON.parse of the row does, and a dataset's first label waits for every row's key (ensureRowKeys).
 */
function keyOfJson(json: string): string {
  return rowKey(projectText(json, projection(ROW_KEY_FIELDS)) ?? (JSON.parse(json) as Obj));
}

const PAGE_ROWS = 5000;

/** Datasets whose every row has its key, per connection (rows appended later carry theirs). */
const complete = new WeakMap<Db, Set<string>>();

function isComplete(db: Db, datasetId: string): boolean {
  return complete.get(db)?.has(datasetId) ?? false;
}

/**
 * Fills the keys of up to `limit` rows of the dataset still without one, in one transaction; returns how many. It
 * walks the rows in ordinal order from where its last page ended: rows without a key are in no index (the key index
 * holds only keyed rows), so a page that started from the first row again read every row filled before it, and a
 * gradual fill of 100k rows of 1.7 KB read some 20 GB of records.
 */
function keyFiller(db: Db, datasetId: string): (limit: number) => number {
  const page = db.prepare('SELECT id, ordinal, row_json FROM rows WHERE dataset_id = ? AND ordinal > ? AND row_key IS NULL ORDER BY ordinal LIMIT ?');
  const fill = db.prepare('UPDATE rows SET row_key = ? WHERE id = ?');
  const fillPage = db.transaction((rows: Array<{ id: number; row_json: string }>) => {
    for (const row of rows) fill.run(keyOfJson(row.row_json), row.id);
  });
  let after = Number.MIN_SAFE_INTEGER;
  return (limit) => {
    const missing = page.all(datasetId, after, limit) as Array<{ id: number; ordinal: number; row_json: string }>;
    if (missing.length > 0) {
      fillPage(missing);
      after = missing[missing.length - 1].ordinal;
    } else if (!db.inTransaction) {
      // Inside a caller's transaction the keys just filled may yet be rolled back (a refused label): not marked.
      let done = complete.get(db);
      if (!done) complete.set(db, (done = new Set()));
      done.add(datasetId);
    }
    return missing.length;
  };
}

/** Fills row_key on every row of the dataset that has none yet; returns how many were filled. */
export function ensureRowKeys(db: Db, datasetId: string): number {
  if (isComplete(db, datasetId) || hasLabels(db, datasetId)) return 0;
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
    while (db.open && !isComplete(db, datasetId) && !hasLabels(db, datasetId) && fillUpTo(GRADUAL_PAGE_ROWS) > 0) {
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
  return keyOfJson(typeof json === 'string' ? json : json());
}
