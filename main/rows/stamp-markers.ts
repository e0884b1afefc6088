// `while-desk markers DATASET` on a stored dataset (datasets.stampMarkers): the stamp (shared/stats/markers/
// stamp.ts, the one grading uses) written into each row's stored markers and trace_flags, and marker_flags kept in
// step, in one transaction. A marker already on the row (a judge's own, an earlier stamp) is kept, as at grading
// time, so a second stamp changes nothing. Rows whose content changed bump the dataset's version, so kept folds,
// sorted views and the queue's columns are read again (trust-stamp.ts does the same).
import { isObject, type Row } from '../../shared/stats/keys';
import { stampOf } from '../../shared/stats/markers/stamp';
import type { Db } from '../db/connection';
import { bumpVersion } from '../db/changes';
import { markerFlagsOf } from './marker-flags';

const PAGE = 2000;

/** Stamps every row of the dataset; returns how many rows were read and how many changed. */
export function stampDatasetMarkers(db: Db, datasetId: string): { rows: number; stamped: number } {
  return db.transaction(() => {
    // Paged by ordinal: better-sqlite3 cannot write on a connection while one of its statements is iterating.
    const page = db.prepare('SELECT ordinal, row_json, marker_flags FROM rows WHERE dataset_id = ? AND ordinal > ? ORDER BY ordinal LIMIT ?');
    const update = db.prepare('UPDATE rows SET row_json = ?, marker_flags = ? WHERE dataset_id = ? AND ordinal = ?');
    const flagsOnly = db.prepare('UPDATE rows SET marker_flags = ? WHERE dataset_id = ? AND ordinal = ?');
    let rows = 0;
    let stamped = 0;
    let after = -1;
    for (;;) {
      const found = page.all(datasetId, after, PAGE) as Array<{ ordinal: number; row_json: string | Uint8Array; marker_flags: string | null }>;
      if (found.length === 0) break;
      for (const { ordinal, row_json: json, marker_flags: stored } of found) {
        rows += 1;
        const row = JSON.parse(typeof json === 'string' ? json : Buffer.from(json).toString('utf8')) as unknown;
        if (!isObject(row)) continue;
        const stamp = stampOf(row as Row);
        if (stamp.changed) {
          const next = { ...row, markers: stamp.markers, trace_flags: stamp.trace_flags };
          update.run(JSON.stringify(next), markerFlagsOf(stamp.markers), datasetId, ordinal);
          stamped += 1;
        } else if (stored === null) {
          flagsOnly.run(markerFlagsOf(row.markers), datasetId, ordinal);
        }
      }
      after = found[found.length - 1].ordinal;
    }
    if (stamped > 0) bumpVersion(db, datasetId);
    return { rows, stamped };
  })();
}
