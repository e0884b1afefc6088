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

type ColumnTuple = [number, string | null, string | null, number | null, GoldState];

const toColumns = ([ordinal, rowKey, scenarioId, reward, goldState]: ColumnTuple): QueueColumns => ({
  ordinal,
  rowKey,
  scenarioId,
  reward,
  judgeStatus: null,
  category: null,
  task: scenarioId ?? '',
  goldState,
});

export function queueColumns(db: Db, datasetId: string): QueueColumns[] {
  const rows = db
    .prepare('SELECT ordinal, row_key, scenario_id, reward, gold_state FROM rows WHERE dataset_id = ? ORDER BY ordinal')
    .raw()
    .all(datasetId) as ColumnTuple[];
  return rows.map(toColumns);
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

/**
 * The least a queue's default order needs of every row, computed by SQLite in one pass without a row object per
 * row: how many rows, each row's judge class in ordinal order ('p' reward 1, 'f' reward 0, 'u' anything else, as
 * judgeClass says), their ordinals, and how many arrived with a gold. A 100k-row dataset's first page is answered
 * from this (tens of ms) while the full columns are read in the background.
 */
export interface QueueOutline {
  count: number;
  classes: string;
  /** Each position's ordinal; null when they run first, first + 1, ... (every import and run). */
  ordinals: number[] | null;
  first: number;
  ownGold: number;
}

export function queueOutline(db: Db, datasetId: string): QueueOutline {
  // Over the ordered subquery rather than with group_concat's own ORDER BY, which sorts again what the index
  // (rows_queue_outline, migration 0008) already gives in order; SQLite keeps a subquery's order for an aggregate
  // over it (it never flattens one into an aggregate: its ticket 2942, about group_concat).
  const [count, first, last, ownGold, classes] = db
    .prepare(
      `SELECT count(*), min(ordinal), max(ordinal), total(gold_state != 'none'),
        group_concat(CASE WHEN reward = 1 THEN 'p' WHEN reward = 0 THEN 'f' ELSE 'u' END, '')
       FROM (SELECT ordinal, reward, gold_state FROM rows WHERE dataset_id = ? ORDER BY ordinal)`,
    )
    .raw()
    .get(datasetId) as [number, number | null, number | null, number, string | null];
  const contiguous = count === 0 || (first !== null && last !== null && last - first + 1 === count);
  const ordinals = contiguous ? null : (db.prepare('SELECT ordinal FROM rows WHERE dataset_id = ? ORDER BY ordinal').pluck().all(datasetId) as number[]);
  return { count, classes: classes ?? '', ordinals, first: first ?? 0, ownGold };
}

/** What a queue item shows of a row, for the given ordinals; the JSON only of rows without a stored key. */
export interface QueuePageRow {
  ordinal: number;
  rowKey: string | null;
  scenarioId: string | null;
  reward: number | null;
  goldState: GoldState;
  keyJson: string | null;
}

export function queuePageRows(db: Db, datasetId: string, ordinals: readonly number[]): Map<number, QueuePageRow> {
  if (ordinals.length === 0) return new Map();
  const found = db
    .prepare(
      `SELECT ordinal, row_key, scenario_id, reward, gold_state, CASE WHEN row_key IS NULL THEN row_json END
       FROM rows WHERE dataset_id = ? AND ordinal IN (SELECT value FROM json_each(?))`,
    )
    .raw()
    .all(datasetId, JSON.stringify(ordinals)) as Array<[number, string | null, string | null, number | null, GoldState, string | null]>;
  return new Map(found.map(([ordinal, rowKey, scenarioId, reward, goldState, keyJson]) => [ordinal, { ordinal, rowKey, scenarioId, reward, goldState, keyJson }]));
}

/** A labeled key's row: its ordinal, the gold it arrived with, and its own gold_labels (JSON text; null: none). */
export interface KeyedRow {
  ordinal: number;
  goldState: GoldState;
  ownLabels: string | null;
}

/** The rows that carry the given keys (by the key index), read without parsing their JSON. */
export function rowsByKey(db: Db, datasetId: string, keys: readonly string[]): Map<string, KeyedRow> {
  if (keys.length === 0) return new Map();
  const found = db
    .prepare(
      `SELECT row_key, ordinal, gold_state, CASE WHEN json_type(row_json, '$.gold_labels') = 'array' THEN json_extract(row_json, '$.gold_labels') END
       FROM rows WHERE dataset_id = ? AND row_key IN (SELECT value FROM json_each(?))`,
    )
    .raw()
    .all(datasetId, JSON.stringify(keys)) as Array<[string, number, GoldState, string | null]>;
  // No ORDER BY: it would walk the ordinal index over the whole dataset instead of looking the keys up. A key
  // on several rows (labels.append refuses to label it) stands for its last row, as the queue's key map has it.
  const out = new Map<string, KeyedRow>();
  for (const [key, ordinal, goldState, ownLabels] of found) if ((out.get(key)?.ordinal ?? -Infinity) < ordinal) out.set(key, { ordinal, goldState, ownLabels });
  return out;
}

/** The queue columns of rows with ordinal > after, `limit` of them (the background read, a chunk at a time). */
export function queueColumnsAfter(db: Db, datasetId: string, after: number, limit: number): QueueColumns[] {
  const rows = db
    .prepare('SELECT ordinal, row_key, scenario_id, reward, gold_state FROM rows WHERE dataset_id = ? AND ordinal > ? ORDER BY ordinal LIMIT ?')
    .raw()
    .all(datasetId, after, limit) as ColumnTuple[];
  return rows.map(toColumns);
}
