// What the labeling queue needs of every row. The first pass reads only indexed columns (no JSON), so a 100k-row
// queue opens at once; three small fields of the JSON (judge_status, category, and the task key's fallbacks when
// a row has no scenario_id) are read afterwards in chunks (queueDetails), for the filters and the aimed order.
// The labels domain caches both per dataset (rows are only ever appended to a dataset).
import type { Db } from '../db/connection';
import type { GoldState } from './columns';

export interface QueueColumns {
  ordinal: number;
  /** Null for an imported row not keyed yet (keys are filled when the dataset is first labeled). */
  rowKey: string | null;
  scenarioId: string | null;
  reward: number | null;
  /** Filled by queueDetails. */
  judgeStatus: string | null;
  category: string | null;
  /** task_key(row): scenario_id, else task_id, else the prompt (its first 300 characters), else "". */
  task: string;
  /** The gold the row arrived with (app labels are applied by the caller). */
  goldState: GoldState;
}

export function queueColumns(db: Db, datasetId: string): QueueColumns[] {
  const rows = db
    .prepare('SELECT ordinal, row_key, scenario_id, reward, gold_state FROM rows WHERE dataset_id = ? ORDER BY ordinal')
    .raw()
    .all(datasetId) as Array<[number, string | null, string | null, number | null, GoldState]>;
  return rows.map(([ordinal, rowKey, scenarioId, reward, goldState]) => ({
    ordinal,
    rowKey,
    scenarioId,
    reward,
    judgeStatus: null,
    category: null,
    task: scenarioId ?? '',
    goldState,
  }));
}

const TEXT = (path: string) => `CASE WHEN json_type(row_json, '${path}') = 'text' THEN json_extract(row_json, '${path}') END`;

/** judge_status, category and the task key's fallback of rows with ordinal > after, `limit` of them. */
export function queueDetails(db: Db, datasetId: string, after: number, limit: number): Array<[number, string | null, string | null, string | null]> {
  return db
    .prepare(
      `SELECT ordinal, ${TEXT('$.judge_status')}, ${TEXT('$.category')},
        CASE WHEN scenario_id IS NULL OR scenario_id = '' THEN
          coalesce(nullif(CAST(json_extract(row_json, '$.task_id') AS TEXT), ''), substr(CAST(json_extract(row_json, '$.prompt') AS TEXT), 1, 300), '')
        END
       FROM rows WHERE dataset_id = ? AND ordinal > ? ORDER BY ordinal LIMIT ?`,
    )
    .raw()
    .all(datasetId, after, limit) as Array<[number, string | null, string | null, string | null]>;
}

/** The stored JSON of the given rows (the queue derives gold and missing keys from it). */
export function rowJsonByOrdinal(db: Db, datasetId: string, ordinals: readonly number[]): Map<number, string> {
  if (ordinals.length === 0) return new Map();
  const found = db
    .prepare('SELECT ordinal, row_json FROM rows WHERE dataset_id = ? AND ordinal IN (SELECT value FROM json_each(?))')
    .raw()
    .all(datasetId, JSON.stringify(ordinals)) as Array<[number, string]>;
  return new Map(found);
}
