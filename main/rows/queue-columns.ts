// What the labeling queue needs of every row, read from the indexed columns plus three small fields of the JSON
// (judge_status, category, and the task key's fallbacks when a row has no scenario_id). One pass; the labels
// domain caches it per dataset and row count (rows are only ever appended to a dataset).
import type { Db } from '../db/connection';
import type { GoldState } from './columns';

export interface QueueColumns {
  ordinal: number;
  rowKey: string;
  scenarioId: string | null;
  reward: number | null;
  judgeStatus: string | null;
  category: string | null;
  /** task_key(row): scenario_id, else task_id, else the prompt (its first 300 characters), else "". */
  task: string;
  /** The gold the row arrived with (app labels are applied by the caller). */
  goldState: GoldState;
}

const TEXT = (path: string) => `CASE WHEN json_type(row_json, '${path}') = 'text' THEN json_extract(row_json, '${path}') END`;

export function queueColumns(db: Db, datasetId: string): QueueColumns[] {
  const rows = db
    .prepare(
      `SELECT ordinal, row_key, scenario_id, reward, gold_state,
        ${TEXT('$.judge_status')} AS judge_status, ${TEXT('$.category')} AS category,
        CASE WHEN scenario_id IS NULL OR scenario_id = '' THEN
          coalesce(nullif(CAST(json_extract(row_json, '$.task_id') AS TEXT), ''), substr(CAST(json_extract(row_json, '$.prompt') AS TEXT), 1, 300), '')
        END AS task_fallback
       FROM rows WHERE dataset_id = ? ORDER BY ordinal`,
    )
    .raw()
    .all(datasetId) as Array<[number, string | null, string | null, number | null, GoldState, string | null, string | null, string | null]>;
  return rows.map(([ordinal, rowKey, scenarioId, reward, goldState, judgeStatus, category, fallback]) => ({
    ordinal,
    rowKey: rowKey ?? `#${ordinal}`,
    scenarioId,
    reward,
    judgeStatus,
    category,
    task: scenarioId !== null && scenarioId !== '' ? scenarioId : (fallback ?? ''),
    goldState,
  }));
}

/** The stored JSON of the given rows (the queue derives gold for its labeled rows from it). */
export function rowJsonByOrdinal(db: Db, datasetId: string, ordinals: readonly number[]): Map<number, string> {
  if (ordinals.length === 0) return new Map();
  const found = db
    .prepare('SELECT ordinal, row_json FROM rows WHERE dataset_id = ? AND ordinal IN (SELECT value FROM json_each(?))')
    .raw()
    .all(datasetId, JSON.stringify(ordinals)) as Array<[number, string]>;
  return new Map(found);
}
