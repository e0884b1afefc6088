// Removing a dataset: its rows, its labels, its sync outbox items, its kept folds and the dataset itself, in one
// transaction.
// A dataset that others were made from (graded copies: parent_id) goes only together with them.
import type { Db } from '../db/connection';
import { noteListChanged } from '../db/changes';
import { ownerAlive } from '../db/repos/datasets';

/** The dataset and every dataset made from it, at any depth, children before their parents. */
function withDescendants(db: Db, id: string): string[] {
  const found = db
    .prepare(
      `WITH RECURSIVE tree(id, depth) AS (SELECT id, 0 FROM datasets WHERE id = ?
         UNION SELECT d.id, tree.depth + 1 FROM datasets d JOIN tree ON d.parent_id = tree.id)
       SELECT id, MAX(depth) AS depth FROM tree GROUP BY id ORDER BY depth DESC, id`,
    )
    .all(id) as Array<{ id: string }>;
  return found.map((row) => row.id);
}

function deleteOne(db: Db, id: string): boolean {
  db.prepare('DELETE FROM rows WHERE dataset_id = ?').run(id);
  db.prepare('DELETE FROM labels WHERE dataset_id = ?').run(id);
  db.prepare('DELETE FROM sync_outbox WHERE dataset_id = ?').run(id);
  db.prepare('DELETE FROM kept_folds WHERE dataset_id = ?').run(id);
  const gone = db.prepare('DELETE FROM datasets WHERE id = ?').run(id).changes > 0;
  if (gone) noteListChanged(db, id);
  return gone;
}

/**
 * Deletes a dataset (and, with `withCopies`, every dataset made from it) in one transaction. Returns the ids
 * removed, children first; empty when there was no such dataset. Without `withCopies` a dataset that has copies
 * is not touched: the caller checks childDatasets first and refuses (a copy's parent_id must name a dataset).
 */
export function deleteDataset(db: Db, id: string, options: { withCopies?: boolean } = {}): string[] {
  return db.transaction(() => {
    const ids = options.withCopies ? withDescendants(db, id) : [id];
    return ids.filter((one) => deleteOne(db, one));
  })();
}

/** An import whose process died left a half-written dataset: remove it so a refusal never leaves rows. */
export function recoverInterruptedImports(db: Db): number {
  const stale = db.prepare(`SELECT id, meta_json FROM datasets WHERE status = 'importing'`).all() as Array<{ id: string; meta_json: string }>;
  let removed = 0;
  for (const dataset of stale) {
    if (ownerAlive(dataset.meta_json, 'import_pid')) continue;
    if (deleteDataset(db, dataset.id).length > 0) removed++;
  }
  return removed;
}
