// The one edit rows ever take in place: a finished grade stamps its trust check (judge_trust over the graded
// rows) on every graded row as judge_meta.trust, as the SDK's run_judge does. The check needs every verdict, so it
// can only be measured once the rows are written; it is stamped in one statement, before the graded dataset is
// marked ready, and bumps the dataset's version so every cache of its rows is read again.
import type { Db } from '../db/connection';
import { bumpVersion } from '../db/changes';

/** Sets judge_meta.trust on every row of the dataset (judge_meta is created where a row has none); returns the rows stamped. */
export function stampTrust(db: Db, datasetId: string, trust: Record<string, unknown>): number {
  return db.transaction(() => {
    const { changes } = db
      .prepare(`UPDATE rows SET row_json = json_set(row_json, '$.judge_meta.trust', json(?)) WHERE dataset_id = ?`)
      .run(JSON.stringify(trust), datasetId);
    bumpVersion(db, datasetId);
    return changes;
  })();
}
