// Reading rows: a sorted page, one whole row, every row (statistics, grading), each with the gold its labels
// give it (gold.ts). Every reader of row data goes through here.
import type { RowListItem, RowSortKey } from '../../shared/api/datasets';
import type { Db } from '../db/connection';
import { goldStateWith, withGold } from './gold';
import { labelsByRowKey, type LabelRecord } from './labels';
import { storedRowKey } from './row-keys';
import { PROJECT_MIN_CHARS, pickFields, projectText, type Projection } from './row-projection';
import { sortedOrdinals, sortedPage } from './sorted';

type Obj = Record<string, unknown>;

const HEAD_CHARS = 160;

export function countRows(db: Db, datasetId: string): number {
  return (db.prepare('SELECT row_count FROM datasets WHERE id = ?').pluck().get(datasetId) as number | undefined) ?? 0;
}

const LIST_COLUMNS = `ordinal, row_key, CASE WHEN row_key IS NULL THEN row_json END AS key_json, scenario_id, rollout_index, reward, gold_state, reply_length,
  substr(json_extract(row_json, '$.prompt'), 1, ${HEAD_CHARS}) AS prompt_head,
  substr(json_extract(row_json, '$.final_text'), 1, ${HEAD_CHARS}) AS reply_head`;

type ListRow = RowListItem & { key_json: string | null; prompt_head: unknown; reply_head: unknown };

/** The page's rows as list items: each with its row key, and its gold state re-derived where labels were appended. */
function toListItems(db: Db, datasetId: string, rows: ListRow[]): RowListItem[] {
  const keys = rows.map((row) => storedRowKey(row.row_key, row.key_json ?? ''));
  const labels = labelsByRowKey(db, datasetId, keys);
  const rowJson = db.prepare('SELECT row_json FROM rows WHERE dataset_id = ? AND ordinal = ?').pluck();
  return rows.map(({ key_json: _json, ...row }, i) => {
    const own = labels.get(keys[i]);
    const goldState = own ? goldStateWith(rowJson.get(datasetId, row.ordinal) as string, own) : row.gold_state;
    return { ...row, row_key: keys[i], gold_state: goldState, prompt_head: String(row.prompt_head ?? ''), reply_head: String(row.reply_head ?? '') };
  });
}

/** A page of the rows in `marked` (a marker filter's ordinals), in the asked order; total is marked.size. */
function markedPage(db: Db, datasetId: string, marked: Set<number>, sort: RowSortKey, descending: boolean, offset: number, limit: number): number[] {
  const order = sort === 'ordinal' ? [...marked].sort((a, b) => a - b) : Array.from(sortedOrdinals(db, datasetId, sort)).filter((ordinal) => marked.has(ordinal));
  if (descending) order.reverse();
  return order.slice(offset, offset + limit);
}

export function pageRows(db: Db, datasetId: string, sort: RowSortKey, descending: boolean, offset: number, limit: number, marked?: Set<number>): RowListItem[] {
  if (sort === 'ordinal' && !marked) {
    const rows = db
      .prepare(`SELECT ${LIST_COLUMNS} FROM rows WHERE dataset_id = ? ORDER BY ordinal ${descending ? 'DESC' : 'ASC'} LIMIT ? OFFSET ?`)
      .all(datasetId, limit, offset) as ListRow[];
    return toListItems(db, datasetId, rows);
  }
  const ordinals = marked ? markedPage(db, datasetId, marked, sort, descending, offset, limit) : sortedPage(db, datasetId, sort as Exclude<RowSortKey, 'ordinal'>, descending, offset, limit);
  if (ordinals.length === 0) return [];
  const found = db
    .prepare(`SELECT ${LIST_COLUMNS} FROM rows WHERE dataset_id = ? AND ordinal IN (SELECT value FROM json_each(?))`)
    .all(datasetId, JSON.stringify(ordinals)) as ListRow[];
  const byOrdinal = new Map(found.map((row) => [row.ordinal, row]));
  return toListItems(db, datasetId, ordinals.flatMap((ordinal) => byOrdinal.get(ordinal) ?? []));
}

/** One whole row with its gold; undefined when the dataset has no row at that ordinal. */
export function getRow(db: Db, datasetId: string, ordinal: number): { row: Obj; rowKey: string } | undefined {
  const found = db.prepare('SELECT row_key, row_json FROM rows WHERE dataset_id = ? AND ordinal = ?').get(datasetId, ordinal) as { row_key: string | null; row_json: string } | undefined;
  if (!found) return undefined;
  const key = storedRowKey(found.row_key, found.row_json);
  return { row: withGold(JSON.parse(found.row_json) as Obj, labelsByRowKey(db, datasetId, [key]).get(key)), rowKey: key };
}

/** A part of a dataset's rows by ordinal: from `from` (inclusive) to `to` (exclusive). */
export interface OrdinalRange {
  from: number;
  to: number;
}

const ALL_ORDINALS: OrdinalRange = { from: Number.MIN_SAFE_INTEGER, to: Number.MAX_SAFE_INTEGER };

/**
 * The ordinal that cuts a dataset's rows in two parts, the first holding `share` of them (the first of the second
 * part; by default the halves); null under `minRows` rows (at least 2).
 */
export function cutOrdinal(db: Db, datasetId: string, minRows = 2, share = 0.5): number | null {
  const count = countRows(db, datasetId);
  if (count < Math.max(2, minRows)) return null;
  const offset = Math.min(count - 1, Math.max(1, Math.floor(count * share)));
  return (db.prepare('SELECT ordinal FROM rows WHERE dataset_id = ? ORDER BY ordinal LIMIT 1 OFFSET ?').pluck().get(datasetId, offset) as number | undefined) ?? null;
}

/** Rows in stored order (those of `range` only, when given), `pageSize` at a time by ordinal, each as its stored JSON with the labels of its key. */
export function* rowPages(db: Db, datasetId: string, pageSize = 1000, range: OrdinalRange = ALL_ORDINALS): Generator<Array<{ ordinal: number; rowKey: string | null; json: string }>> {
  const page = db.prepare('SELECT ordinal, row_key, row_json FROM rows WHERE dataset_id = ? AND ordinal > ? AND ordinal < ? ORDER BY ordinal LIMIT ?');
  for (let after = range.from - 1; ; ) {
    const batch = page.all(datasetId, after, range.to, pageSize) as Array<{ ordinal: number; row_key: string | null; row_json: string }>;
    if (batch.length === 0) return;
    after = batch[batch.length - 1].ordinal;
    yield batch.map((row) => ({ ordinal: row.ordinal, rowKey: row.row_key, json: row.row_json }));
  }
}

/**
 * Every row's JSON in stored order, with its app labels stamped on where it has any (else the stored text as it is):
 * what a push uploads, streamed page by page.
 */
export function* iterateRowJson(db: Db, datasetId: string): Generator<string> {
  const labels = labelsByRowKey(db, datasetId);
  for (const page of rowPages(db, datasetId)) {
    for (const stored of page) {
      const own = labels.size === 0 ? undefined : labels.get(storedRowKey(stored.rowKey, stored.json));
      yield own ? JSON.stringify(withGold(JSON.parse(stored.json) as Obj, own)) : stored.json;
    }
  }
}

/**
 * A stored row as a reader hands it on: whole (`fields` null), or only the fields a statistic declares
 * (row-projection.ts; `transient` for a fold, which lets each row go). A row with app labels is parsed whole to take
 * its gold first (a few rows: those labeled in the app), then cut to the fields.
 */
function storedRow(json: string, own: readonly LabelRecord[] | undefined, fields: Projection | null, transient: boolean): Obj {
  if (own !== undefined) {
    const whole = withGold(JSON.parse(json) as Obj, own);
    return fields ? pickFields(whole, fields) : whole;
  }
  if (!fields) return JSON.parse(json) as Obj;
  return (json.length >= PROJECT_MIN_CHARS ? projectText(json, fields, transient) : undefined) ?? pickFields(JSON.parse(json) as Obj, fields);
}

/**
 * Every row parsed, in stored order, with its gold (statistics workers, grading, tests); only `fields` of each when
 * given. Read by pages (PAGE_CHARS), as a fold reads them: the texts of all rows at once would be promoted whole.
 */
export function readDatasetRows(db: Db, datasetId: string, fields: Projection | null = null): Obj[] {
  const rows: Obj[] = [];
  eachStoredRow(db, datasetId, ALL_ORDINALS, fields, false, (row) => rows.push(row));
  return rows;
}

/** Rows in stored order (of `range` only, when given), a page at a time, parsed and with their gold (grading, statistics folds). */
export function* parsedRowPages(db: Db, datasetId: string, pageSize = 256, range?: OrdinalRange): Generator<Array<{ ordinal: number; row: Obj }>> {
  const labels = labelsByRowKey(db, datasetId);
  for (const page of rowPages(db, datasetId, pageSize, range)) {
    yield page.map((stored) => ({ ordinal: stored.ordinal, row: withGold(JSON.parse(stored.json) as Obj, labels.size === 0 ? undefined : labels.get(storedRowKey(stored.rowKey, stored.json))) }));
  }
}

/**
 * Row text per page of a scan, about: a page's strings stay alive while its rows are read, and a page larger than a
 * statistics thread's young generation holds (6 MB, stats-thread.ts) is copied by each scavenge and then promoted.
 * Pages of 1,000 rows of 1.7 KB did that: two folds of 100k such rows spent 1.9 s of their 6 in the garbage collector.
 */
const PAGE_CHARS = 256 << 10;
const FIRST_PAGE_ROWS = 100;

/**
 * Each row of `range` (all when absent) parsed, with its gold, handed to `onRow` in stored order: what a statistic's
 * fold reads, only `fields` of each row when given (transient rows: onRow lets each go). Lean on purpose (a third
 * faster than parsedRowPages on 100k rows): pages come as arrays and no object is made per row but the row itself.
 */
export function forEachParsedRow(db: Db, datasetId: string, onRow: (row: Obj) => void, range: OrdinalRange = ALL_ORDINALS, fields: Projection | null = null): void {
  eachStoredRow(db, datasetId, range, fields, true, onRow);
}

/** The rows of `range` in stored order, by pages of about PAGE_CHARS of text, as storedRow makes them. */
function eachStoredRow(db: Db, datasetId: string, range: OrdinalRange, fields: Projection | null, transient: boolean, onRow: (row: Obj) => void): void {
  const labels = labelsByRowKey(db, datasetId);
  const page = db.prepare('SELECT ordinal, row_key, row_json FROM rows WHERE dataset_id = ? AND ordinal > ? AND ordinal < ? ORDER BY ordinal LIMIT ?').raw();
  let pageSize = FIRST_PAGE_ROWS;
  for (let after = range.from - 1; ; ) {
    const batch = page.all(datasetId, after, range.to, pageSize) as Array<[number, string | null, string]>;
    if (batch.length === 0) return;
    after = batch[batch.length - 1][0];
    let chars = 0;
    for (const [, key, json] of batch) {
      chars += json.length;
      onRow(storedRow(json, labels.size === 0 ? undefined : labels.get(storedRowKey(key, json)), fields, transient));
    }
    pageSize = Math.max(16, Math.min(1000, Math.floor((PAGE_CHARS * batch.length) / Math.max(1, chars))));
  }
}

/** The rows of one task (scenario_id), in stored order, with their gold (the compare screen's two sides). */
export function taskRows(db: Db, datasetId: string, scenarioId: string, limit: number): Array<{ ordinal: number; row: Obj }> {
  const found = db
    .prepare('SELECT ordinal, row_key, row_json FROM rows WHERE dataset_id = ? AND scenario_id = ? ORDER BY ordinal LIMIT ?')
    .all(datasetId, scenarioId, limit) as Array<{ ordinal: number; row_key: string | null; row_json: string }>;
  const labels = labelsByRowKey(db, datasetId);
  return found.map((entry) => ({
    ordinal: entry.ordinal,
    row: withGold(JSON.parse(entry.row_json) as Obj, labels.size === 0 ? undefined : labels.get(storedRowKey(entry.row_key, entry.row_json))),
  }));
}

/**
 * A run's rows as pass_at groups them, from the indexed columns alone: its task (scenario_id) and reward. A run writes
 * every row itself, with a scenario_id and a numeric reward or null, so these two fields are all that pass_at's task
 * key and label read on them, and the run's pass@1 needs no row JSON parsed.
 */
export function runScoreRows(db: Db, runId: string): Array<{ scenario_id: string | null; reward: number | null }> {
  return db.prepare('SELECT scenario_id, reward FROM rows WHERE dataset_id = ? ORDER BY ordinal').all(runId) as Array<{ scenario_id: string | null; reward: number | null }>;
}

/**
 * Rows by judge_status, and how many carry a reward (what a run's summary says when grading failed).
 * `gradedAreOk`: every row with a reward has judge_status "ok" (rows a run's own judge graded: a verdict carries a
 * reward exactly when its status is ok), so only the ungraded rows' JSON is read, instead of every row's.
 */
export function judgeStatusCounts(db: Db, datasetId: string, options: { gradedAreOk?: boolean } = {}): { counts: Record<string, number>; graded: number } {
  const counts: Record<string, number> = {};
  let graded = 0;
  if (options.gradedAreOk) {
    graded = db.prepare('SELECT COUNT(*) FROM rows WHERE dataset_id = ? AND reward IS NOT NULL').pluck().get(datasetId) as number;
    if (graded > 0) counts.ok = graded;
  }
  const rows = db
    .prepare(
      `SELECT json_extract(row_json, '$.judge_status') AS status, COUNT(*) AS n, SUM(reward IS NOT NULL) AS graded
       FROM rows WHERE dataset_id = ?${options.gradedAreOk ? ' AND reward IS NULL' : ''} GROUP BY 1`,
    )
    .all(datasetId) as Array<{ status: string | null; n: number; graded: number }>;
  for (const row of rows) {
    graded += row.graded;
    if (row.status !== null) counts[row.status] = (counts[row.status] ?? 0) + row.n;
  }
  return { counts, graded };
}
