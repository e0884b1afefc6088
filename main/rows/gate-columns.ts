// What the publish gate reads of a dataset, from the rows table without parsing the rows its indexed columns
// already describe: a row whose scenario_id is a plain string and whose reward is 0 or 1 has that task key and
// that label, whatever else it holds, so those rows are counted by one SQL aggregate. Any other row (no task id,
// a reward that is not 0/1, a scenario_id that may not have been a string) is parsed and read by the gate's own
// readers. The rows' app labels are not applied: they set gold_*, which the gate does not read.
import type { Db } from '../db/connection';

/** One scenario_id's rows: how many, how many have a 0/1 reward, how many of those pass, and the first one's ordinal. */
export interface ColumnTask {
  task: string | null;
  rows: number;
  labelled: number;
  passes: number;
  first: number | null;
}

/**
 * A scenario_id column holds String(value): a JSON string unchanged, but also "5" for 5, "true" for true, "a,b"
 * for ["a", "b"]. The rows of a value that could have come from a non-string are checked against their JSON; a
 * one-element array of a string (["t1"] stored as "t1") is the one case left, and no row writer produces it.
 */
const MAYBE_NOT_TEXT = /^[0-9+-]|^(?:true|false|NaN|Infinity)$|^\[object |,/;
const IS_TEXT = `coalesce(json_type(row_json, '$.scenario_id'), '') = 'text'`;

const AGGREGATE = `SELECT scenario_id AS task, count(*) AS rows, count(CASE WHEN reward IN (0, 1) THEN 1 END) AS labelled,
  count(CASE WHEN reward = 1 THEN 1 END) AS passes, min(CASE WHEN reward IN (0, 1) THEN ordinal END) AS first
  FROM rows WHERE dataset_id = ?`;

export interface ColumnTasks {
  /** Per scenario_id, in order of first 0/1 row (tasks with none last): only the rows the columns describe. */
  tasks: Map<string, ColumnTask>;
  /** Values whose rows were checked, and only their string-valued rows counted. */
  checked: string[];
}

/**
 * Tasks of one scenario_id each, counted row by row in a JS aggregate (half the time of a GROUP BY: no sort, no
 * result rows), in the order the rows are read: stored order.
 */
function tallyTasks(db: Db, datasetId: string): Map<string | null, ColumnTask> {
  const tasks = new Map<string | null, ColumnTask>();
  // SQLite passes as many arguments as the step function declares after the running count.
  const step = (count: number, task: string | null, reward: number | null, ordinal: number): number => {
    let entry = tasks.get(task);
    if (!entry) tasks.set(task, (entry = { task, rows: 0, labelled: 0, passes: 0, first: null }));
    entry.rows++;
    if (reward === 0 || reward === 1) {
      entry.labelled++;
      entry.passes += reward;
      if (entry.first === null || ordinal < entry.first) entry.first = ordinal;
    }
    return count + 1;
  };
  db.aggregate('while_gate_tasks', { start: 0, step: step as unknown as (count: number, next: unknown) => number });
  db.prepare('SELECT while_gate_tasks(scenario_id, reward, ordinal) FROM rows WHERE dataset_id = ?').pluck().get(datasetId);
  return tasks;
}

export function columnTasks(db: Db, datasetId: string): ColumnTasks {
  const all = tallyTasks(db, datasetId);
  const tasks = all as Map<string, ColumnTask>;
  const checked: string[] = [];
  all.delete(null);
  all.delete('');
  for (const key of all.keys()) if (MAYBE_NOT_TEXT.test(key as string)) (checked.push(key as string), all.delete(key));
  if (checked.length) {
    const text = db.prepare(`${AGGREGATE} AND scenario_id IN (SELECT value FROM json_each(?)) AND ${IS_TEXT} GROUP BY scenario_id`).all(datasetId, JSON.stringify(checked)) as ColumnTask[];
    for (const task of text) tasks.set(task.task!, task);
  }
  // Tasks came in order of first row; put them in order of first 0/1 row where that differs.
  let last = -Infinity;
  let ordered = true;
  for (const task of tasks.values()) {
    const first = task.first ?? Infinity;
    if (first < last) ordered = false;
    last = first;
  }
  return { tasks: ordered ? tasks : new Map([...tasks].sort((a, b) => (a[1].first ?? Infinity) - (b[1].first ?? Infinity))), checked };
}

/** The rows columnTasks does not count, in stored order, as their stored JSON: the gate parses these. */
export function* undescribedRows(db: Db, datasetId: string, checked: readonly string[]): Generator<{ ordinal: number; json: string }> {
  const other = checked.length ? ` OR (scenario_id IN (SELECT value FROM json_each(?)) AND NOT ${IS_TEXT})` : '';
  const query = db.prepare(`SELECT ordinal, row_json AS json FROM rows WHERE dataset_id = ? AND (scenario_id IS NULL OR scenario_id = '' OR NOT coalesce(reward IN (0, 1), 0)${other}) ORDER BY ordinal`);
  yield* query.iterate(...(checked.length ? [datasetId, JSON.stringify(checked)] : [datasetId])) as Iterable<{ ordinal: number; json: string }>;
}

/** Every row's stored JSON in stored order, without its app labels: what the gate's remaining readers scan. */
export function* storedRowJson(db: Db, datasetId: string): Generator<string> {
  yield* db.prepare('SELECT row_json FROM rows WHERE dataset_id = ? ORDER BY ordinal').pluck().iterate(datasetId) as Iterable<string>;
}
