// Folds a dataset keeps (shared/stats/kept-folds.ts says which, and why): a statistic's fold of all its rows, stored
// encoded (fold-codec.ts) beside the dataset version it read, and read back only while the dataset still has that
// version. Every write bumps the version, so an entry is either current or unread; writing one drops the dataset's
// entries of other versions.
import type { Db } from '../db/connection';
import { datasetVersion } from '../db/changes';
import { decodeFoldState, encodeFoldState } from './fold-codec';

/** Fold keys kept per dataset (each plan of delta_report's options is one): the newest written stay. */
const KEPT_PER_DATASET = 4;

/** The dataset's fold under `key` at `version`, or undefined when none is kept (a damaged entry is only a miss). */
export function keptFold(db: Db, datasetId: string, key: string, version: number): unknown {
  const blob = db.prepare('SELECT state FROM kept_folds WHERE dataset_id = ? AND fold_key = ? AND version = ?').pluck().get(datasetId, key, version) as Buffer | undefined;
  if (blob === undefined) return undefined;
  try {
    return decodeFoldState(blob);
  } catch {
    return undefined;
  }
}

/** A fold's state as it is kept; throws for a state that is not plain data. */
export const serializeFold = (state: unknown): Uint8Array => encodeFoldState(state);

/**
 * The dataset's folds of the same name as `key` kept in another format (by an older build): never read again, and
 * each some megabytes on a large run. Keys read `name/format` then NUL then the start key (keptFoldKey).
 */
function dropOtherFormats(db: Db, datasetId: string, key: string): void {
  const name = key.slice(0, key.indexOf('/') + 1);
  const nameAndFormat = key.slice(0, key.indexOf('\u0000') + 1);
  const keys = db.prepare('SELECT fold_key FROM kept_folds WHERE dataset_id = ?').pluck().all(datasetId) as string[];
  const drop = db.prepare('DELETE FROM kept_folds WHERE dataset_id = ? AND fold_key = ?');
  for (const other of keys) if (other.startsWith(name) && !other.startsWith(nameAndFormat)) drop.run(datasetId, other);
}

/**
 * Keeps a fold of the dataset's rows at `version` (its state serialized: serializeFold), unless the dataset has
 * moved on since: then it is the fold of rows the dataset no longer has, and nothing is kept. Says whether it kept it.
 */
export function keepFold(db: Db, datasetId: string, key: string, version: number, state: Uint8Array): boolean {
  return db.transaction(() => {
    if (datasetVersion(db, datasetId) !== version) return false;
    db.prepare('DELETE FROM kept_folds WHERE dataset_id = ? AND version <> ?').run(datasetId, version);
    dropOtherFormats(db, datasetId, key);
    db.prepare(
      `INSERT INTO kept_folds (dataset_id, fold_key, version, kept_at, state) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (dataset_id, fold_key) DO UPDATE SET version = excluded.version, kept_at = excluded.kept_at, state = excluded.state`,
    ).run(datasetId, key, version, Date.now(), state);
    db.prepare(
      `DELETE FROM kept_folds WHERE dataset_id = ? AND fold_key NOT IN
         (SELECT fold_key FROM kept_folds WHERE dataset_id = ? ORDER BY kept_at DESC, rowid DESC LIMIT ?)`,
    ).run(datasetId, datasetId, KEPT_PER_DATASET);
    return true;
  })();
}
