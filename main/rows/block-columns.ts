// A parse worker's rows, columnar: one array per column of columns.ts, typed arrays where the column's ship
// kind allows (transferred between threads, not copied). Derived from the column list; nothing here names a column.
import { ROW_COLUMNS, type Ship } from './columns';

type Obj = Record<string, unknown>;
export type BlockColumn = Array<string | null> | Float64Array | Int32Array | Uint8Array;

interface Shipper {
  create(capacity: number): BlockColumn;
  get(array: BlockColumn, i: number): unknown;
}

/** A column the block leaves out: the writer binds null (see Ship 'later'). */
const NOT_SHIPPED: Shipper = { create: () => [], get: () => null };

function shipper(ship: Ship): Shipper {
  if (ship === 'later') return NOT_SHIPPED;
  if (ship === 'text') {
    return {
      create: () => [],
      get: (array, i) => (array as Array<string | null>)[i],
    };
  }
  if (ship === 'number') {
    return {
      create: (capacity) => new Float64Array(capacity),
      get: (array, i) => {
        const value = (array as Float64Array)[i];
        return Number.isNaN(value) ? null : value;
      },
    };
  }
  if (ship === 'count') {
    return {
      create: (capacity) => new Int32Array(capacity),
      get: (array, i) => (array as Int32Array)[i],
    };
  }
  const { oneOf } = ship;
  return {
    create: (capacity) => new Uint8Array(capacity),
    get: (array, i) => oneOf[(array as Uint8Array)[i]],
  };
}

const SHIPPERS = ROW_COLUMNS.map((spec) => shipper(spec.ship));
const READERS = ROW_COLUMNS.map((spec) => spec.read as (row: Obj) => unknown);
/** The shipped columns grouped by kind, so each loop of putBlockRow writes one kind of array (a parse worker's hot path). */
const columnsShipped = (test: (ship: Ship) => boolean) => ROW_COLUMNS.flatMap((spec, c) => (test(spec.ship) ? [c] : []));
const TEXT = columnsShipped((ship) => ship === 'text');
const NUMBER = columnsShipped((ship) => ship === 'number');
const COUNT = columnsShipped((ship) => ship === 'count');
const ONE_OF = columnsShipped((ship) => typeof ship === 'object');
const oneOfValues = (c: number) => (ROW_COLUMNS[c].ship as { oneOf: readonly string[] }).oneOf;

export function newBlockColumns(capacity: number): BlockColumn[] {
  return SHIPPERS.map((ship) => ship.create(capacity));
}

/** Reads every shipped column of `row` into position i (the 'later' ones stay null). */
export function putBlockRow(columns: BlockColumn[], i: number, row: Obj): void {
  for (const c of TEXT) (columns[c] as Array<string | null>)[i] = READERS[c](row) as string | null;
  for (const c of NUMBER) {
    const value = READERS[c](row) as number | null;
    (columns[c] as Float64Array)[i] = value === null ? Number.NaN : value;
  }
  for (const c of COUNT) (columns[c] as Int32Array)[i] = READERS[c](row) as number;
  for (const c of ONE_OF) (columns[c] as Uint8Array)[i] = Math.max(0, oneOfValues(c).indexOf(READERS[c](row) as string));
}

/**
 * Copies the column values of rows [from, from + count) into the writer's bind array: row j's values start at
 * out[j * stride + offset], in column order. Column by column, so each inner loop reads one kind of array (the
 * writer's hot path: a loop per row over mixed columns costs an import a fifth of its write time).
 */
export function bindBlockRows(columns: BlockColumn[], from: number, count: number, out: unknown[], stride: number, offset: number): void {
  ROW_COLUMNS.forEach((spec, c) => {
    const ship = spec.ship;
    const at = offset + c;
    if (ship === 'later') {
      for (let j = 0; j < count; j++) out[j * stride + at] = null;
    } else if (ship === 'number') {
      const array = columns[c] as Float64Array;
      for (let j = 0; j < count; j++) {
        const value = array[from + j];
        out[j * stride + at] = Number.isNaN(value) ? null : value;
      }
    } else if (ship === 'text' || ship === 'count') {
      const array = columns[c] as Array<string | null> | Int32Array;
      for (let j = 0; j < count; j++) out[j * stride + at] = array[from + j];
    } else {
      const array = columns[c] as Uint8Array;
      for (let j = 0; j < count; j++) out[j * stride + at] = ship.oneOf[array[from + j]];
    }
  });
}

/** Row i's values keyed by column (tests, and callers off the hot path). */
export function blockRowValues(columns: BlockColumn[], i: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  ROW_COLUMNS.forEach((spec, c) => (out[spec.key] = SHIPPERS[c].get(columns[c], i)));
  return out;
}

export function blockColumnBuffers(columns: BlockColumn[]): ArrayBuffer[] {
  return columns.flatMap((array) => (Array.isArray(array) ? [] : [array.buffer as ArrayBuffer]));
}
