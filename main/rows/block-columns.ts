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

function shipper(ship: Ship): Shipper {
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

export function newBlockColumns(capacity: number): BlockColumn[] {
  return SHIPPERS.map((ship) => ship.create(capacity));
}

/** Reads every indexed column of `row` into position i. */
export function putBlockRow(columns: BlockColumn[], i: number, row: Obj): void {
  for (let c = 0; c < SHIPPERS.length; c++) SHIPPERS[c].put(columns[c], i, READERS[c](row));
}

/** Copies row i's column values into `out` from position `at` (the writer's bind array), in column order. */
export function copyBlockRow(columns: BlockColumn[], i: number, out: unknown[], at: number): number {
  for (let c = 0; c < SHIPPERS.length; c++) out[at++] = SHIPPERS[c].get(columns[c], i);
  return at;
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
