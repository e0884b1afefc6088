// A parse worker's rows, columnar: one array per column of columns.ts, typed arrays where the column's ship
// kind allows (transferred between threads, not copied). Derived from the column list; nothing here names a column.
import { ROW_COLUMNS, type Ship } from './columns';

type Obj = Record<string, unknown>;
export type BlockColumn = Array<string | null> | Float64Array | Int32Array | Uint8Array;

interface Shipper {
  create(capacity: number): BlockColumn;
  put(array: BlockColumn, i: number, value: unknown): void;
  get(array: BlockColumn, i: number): unknown;
}

/** A column the block leaves out: the writer binds null (see Ship 'later'). */
const NOT_SHIPPED: Shipper = { create: () => [], put: () => undefined, get: () => null };

function shipper(ship: Ship): Shipper {
  if (ship === 'later') return NOT_SHIPPED;
  if (ship === 'text') {
    return {
      create: () => [],
      put: (array, i, value) => ((array as Array<string | null>)[i] = value as string | null),
      get: (array, i) => (array as Array<string | null>)[i],
    };
  }
  if (ship === 'number') {
    return {
      create: (capacity) => new Float64Array(capacity),
      put: (array, i, value) => ((array as Float64Array)[i] = value === null ? Number.NaN : (value as number)),
      get: (array, i) => {
        const value = (array as Float64Array)[i];
        return Number.isNaN(value) ? null : value;
      },
    };
  }
  if (ship === 'count') {
    return {
      create: (capacity) => new Int32Array(capacity),
      put: (array, i, value) => ((array as Int32Array)[i] = value as number),
      get: (array, i) => (array as Int32Array)[i],
    };
  }
  const { oneOf } = ship;
  return {
    create: (capacity) => new Uint8Array(capacity),
    put: (array, i, value) => ((array as Uint8Array)[i] = Math.max(0, oneOf.indexOf(value as string))),
    get: (array, i) => oneOf[(array as Uint8Array)[i]],
  };
}

const SHIPPERS = ROW_COLUMNS.map((spec) => shipper(spec.ship));
const READERS = ROW_COLUMNS.map((spec) => spec.read as (row: Obj) => unknown);
/** The columns a parse worker reads and ships; the others stay null in its blocks. */
const SHIPPED = ROW_COLUMNS.flatMap((spec, c) => (spec.ship === 'later' ? [] : [c]));

export function newBlockColumns(capacity: number): BlockColumn[] {
  return SHIPPERS.map((ship) => ship.create(capacity));
}

/** Reads every indexed column of `row` into position i. */
export function putBlockRow(columns: BlockColumn[], i: number, row: Obj): void {
  for (const c of SHIPPED) SHIPPERS[c].put(columns[c], i, READERS[c](row));
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
