// What the publish gate reads of a dataset, from the rows table without parsing the rows its indexed columns
// already describe: a row whose scenario_id is a plain string and whose reward is 0 or 1 has that task key and
// that label, whatever else it holds, so those rows are counted by one SQL aggregate. Any other row (no task id,
// a reward that is not 0/1, a scenario_id that may not have been a string) is parsed and read by the gate's own
// readers. The rows' app labels are not applied: they set gold_*, which the gate does not read.
import type { Db } from '../db/connection';

/** Per task, over the rows the columns describe: how many (all 0/1), how many pass, and the first one's ordinal. */
export interface ColumnTask {
  task: string;
  n: number;
  passes: number;
  first: number;
}

/**
 * A scenario_id column holds String(value): a JSON string unchanged, but also "5" for 5, "true" for true, "a,b"
 * for ["a", "b"]. Only values that could have come from a non-string are checked against the row (a JSON parse);
 * a one-element array of a string (["t1"] stored as "t1") is the one case left, and no row writer produces it.
 */
const MAYBE_NOT_TEXT = `(scenario_id GLOB '[0-9+-]*' OR scenario_id IN ('true', 'false', 'NaN', 'Infinity') OR scenario_id GLOB '[[]object *' OR instr(scenario_id, ',') > 0)`;
const DESCRIBED = `(coalesce(reward IN (0, 1), 0) AND coalesce(scenario_id <> '', 0) AND NOT (${MAYBE_NOT_TEXT} AND coalesce(json_type(row_json, '$.scenario_id'), '') <> 'text'))`;

/** The tasks of the rows the columns describe, in no particular order (each with its first ordinal). */
export function columnTasks(db: Db, datasetId: string): ColumnTask[] {
  return db
    .prepare(`SELECT scenario_id AS task, count(*) AS n, sum(reward = 1) AS passes, min(ordinal) AS first FROM rows WHERE dataset_id = ? AND ${DESCRIBED} GROUP BY scenario_id`)
    .all(datasetId) as ColumnTask[];
}

/** The other rows, in stored order, as their stored JSON: the gate parses these. */
export function* undescribedRows(db: Db, datasetId: string): Generator<{ ordinal: number; json: string }> {
  yield* db.prepare(`SELECT ordinal, row_json AS json FROM rows WHERE dataset_id = ? AND NOT ${DESCRIBED} ORDER BY ordinal`).iterate(datasetId) as Iterable<{ ordinal: number; json: string }>;
}

/** Every row's stored JSON in stored order, without its app labels: what the gate's remaining readers scan. */
export function* storedRowJson(db: Db, datasetId: string): Generator<string> {
  yield* db.prepare('SELECT row_json FROM rows WHERE dataset_id = ? ORDER BY ordinal').pluck().iterate(datasetId) as Iterable<string>;
}
