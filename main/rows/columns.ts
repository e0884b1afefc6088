// The rows table's indexed columns, declared once: each column's name, SQL type, how it is read from a row and
// how a parse worker ships it back to the writer (columnar). The INSERT statements (append.ts), the parse
// workers' blocks (block-columns.ts) and the row types below are all derived from this list, so adding a
// column is one line here plus a migration that adds it to the table (test/unit/rows/columns.test.ts checks
// the two agree).
import { replyLength } from '../../shared/schema/conversation';
import { rowKey } from '../../shared/stats/keys';
import { markerFlagsOf } from './marker-flags';

type Obj = Record<string, unknown>;

/**
 * How a column travels from a parse worker, in a typed array where it can: 'text' a string array (null kept),
 * 'number' a Float64Array (NaN for null), 'count' an Int32Array (never null), or one of a few strings (a byte).
 * 'later': not shipped at all; an imported row stores null and the rows module fills it when first needed.
 */
export type Ship = 'text' | 'number' | 'count' | 'later' | { oneOf: readonly string[] };

interface ColumnSpec<K extends string, V> {
  /** The TypeScript name in StoredRow. */
  key: K;
  /** The SQL column. */
  column: string;
  /** Its type as the migrations declare it (documentation, and checked against the table by a test). */
  sql: string;
  ship: Ship;
  read(row: Obj): V;
}

const column = <K extends string, V>(spec: ColumnSpec<K, V>): ColumnSpec<K, V> => spec;

export const GOLD_STATES = ['none', 'pass', 'fail'] as const;
export type GoldState = (typeof GOLD_STATES)[number];

export function goldStateOf(row: Obj): GoldState {
  const gold = row.gold_reward;
  if (gold === 1) return 'pass';
  if (gold === 0) return 'fail';
  return 'none';
}

const whole = (value: unknown): number | null => (Number.isInteger(value) ? (value as number) : null);

export const ROW_COLUMNS = [
  column({ key: 'scenarioId', column: 'scenario_id', sql: 'TEXT', ship: 'text', read: (row): string | null => (row.scenario_id === undefined || row.scenario_id === null ? null : String(row.scenario_id)) }),
  column({ key: 'rolloutIndex', column: 'rollout_index', sql: 'INTEGER', ship: 'number', read: (row) => whole(row.rollout_index) }),
  column({ key: 'evalRun', column: 'eval_run', sql: 'INTEGER', ship: 'number', read: (row) => whole(row.lineage && typeof row.lineage === 'object' ? (row.lineage as Obj).eval_run : undefined) }),
  column({ key: 'reward', column: 'reward', sql: 'REAL', ship: 'number', read: (row) => (typeof row.reward === 'number' && Number.isFinite(row.reward) ? row.reward : null) }),
  // The gold the row arrived with; labels appended in the app are applied on every read (gold.ts).
  column({ key: 'goldState', column: 'gold_state', sql: 'TEXT', ship: { oneOf: GOLD_STATES }, read: goldStateOf }),
  column({ key: 'replyLength', column: 'reply_length', sql: 'INTEGER', ship: 'count', read: (row) => replyLength(row) }),
  // attach_labels' row_key (rollout_id, else scenario_id#rollout_index, else the prompt hash): what labels name.
  // Rows appended as objects (runs, grading) carry it; an import leaves it null, filled for the whole dataset when
  // it is first labeled (row-keys.ts): keys arrive in no order, and indexing them during a bulk import would cost
  // it a third of its write time.
  column({ key: 'rowKey', column: 'row_key', sql: 'TEXT', ship: 'later', read: (row) => rowKey(row) }),
  // The markers as the marker filters read them (marker-flags.ts); an import leaves it null, filled when a dataset
  // is first filtered by a marker (its rows' markers came with the file and change only by a stamp).
  column({ key: 'markerFlags', column: 'marker_flags', sql: 'TEXT', ship: 'later', read: (row): string => markerFlagsOf(row.markers) }),
] as const;

type Columns = (typeof ROW_COLUMNS)[number];

/** The indexed values of one row, typed from the column list. */
export type RowColumns = { [C in Columns as C['key']]: ReturnType<C['read']> };

/** A row as it is appended: its slot, its indexed values, and its JSON (text, or UTF-8 bytes of an imported line). */
export type StoredRow = RowColumns & { ordinal: number; json: string | Uint8Array };

export function rowColumns(row: Obj): RowColumns {
  const out: Record<string, unknown> = {};
  for (const spec of ROW_COLUMNS) out[spec.key] = spec.read(row);
  return out as RowColumns;
}

export function toStoredRow(row: Obj, ordinal: number): StoredRow {
  return { ordinal, ...rowColumns(row), json: JSON.stringify(row) };
}

/** The columns of an INSERT, in the order append.ts binds them. */
export const INSERT_COLUMNS = ['dataset_id', 'ordinal', ...ROW_COLUMNS.map((spec) => spec.column), 'row_json'];
/** Values per row in an INSERT. */
export const VALUES_PER_ROW = INSERT_COLUMNS.length;
/** One row's placeholders; the JSON is stored as text even when bound as bytes. */
export const ROW_PLACEHOLDERS = `(${INSERT_COLUMNS.map((name) => (name === 'row_json' ? 'CAST(? AS TEXT)' : '?')).join(', ')})`;
