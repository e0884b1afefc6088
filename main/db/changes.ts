// Which datasets a write changed. Every write bumps its dataset's one version number (readers' caches key on
// it) and notes the change here, where it happens; the engine publishes the notes after the commit as
// `rows.changed {dataset_id, version}` and, when the list of datasets itself changed, `datasets.changed {id}`
// (engine/change-feed.ts). Nothing else emits change events.
import type Database from 'better-sqlite3';
import type { Db } from './connection';

interface Pending {
  rows: Set<string>;
  list: Set<string>;
  onNote: (() => void) | null;
  bump: Database.Statement<[number, string]> | null;
}

const pendingByDb = new WeakMap<Db, Pending>();

function pending(db: Db): Pending {
  let found = pendingByDb.get(db);
  if (!found) {
    found = { rows: new Set(), list: new Set(), onNote: null, bump: null };
    pendingByDb.set(db, found);
  }
  return found;
}

/** Bumps the dataset's version (and its row count by `rowsAdded`) in the caller's transaction, and notes it. */
export function bumpVersion(db: Db, datasetId: string, rowsAdded = 0): void {
  const found = pending(db);
  found.bump ??= db.prepare<[number, string]>('UPDATE datasets SET version = version + 1, row_count = row_count + ? WHERE id = ?');
  found.bump.run(rowsAdded, datasetId);
  noteRowsChanged(db, datasetId);
}

export function noteRowsChanged(db: Db, datasetId: string): void {
  const found = pending(db);
  found.rows.add(datasetId);
  found.onNote?.();
}

/** A dataset was added, removed or changed status: lists of datasets should refresh. */
export function noteListChanged(db: Db, datasetId: string): void {
  const found = pending(db);
  found.list.add(datasetId);
  found.onNote?.();
}

/** The changes noted since the last call, handed over once. */
export function takeChanges(db: Db): { rows: string[]; list: string[] } {
  const found = pending(db);
  const taken = { rows: [...found.rows], list: [...found.list] };
  found.rows.clear();
  found.list.clear();
  return taken;
}

/** Called on every note (the engine schedules a publish); one watcher per connection. */
export function watchChanges(db: Db, onNote: (() => void) | null): void {
  pending(db).onNote = onNote;
}

/** The dataset's current version; undefined when there is no such dataset. */
export function datasetVersion(db: Db, datasetId: string): number | undefined {
  return db.prepare('SELECT version FROM datasets WHERE id = ?').pluck().get(datasetId) as number | undefined;
}
