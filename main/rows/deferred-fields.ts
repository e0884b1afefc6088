// The fields of a projected row (row-projection.ts) that are not parsed when the row is made: a large value of a
// transient row, parsed on first read (putLazy), and a fold's late fields, not even looked for until first read
// (lateRowOf). Either becomes a plain own property once read or written.

type Obj = Record<string, unknown>;

/** Sets `key` on a projected row; `__proto__` as an own property, as JSON.parse makes it. */
export function put(out: Obj, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(out, key, { value, writable: true, enumerable: true, configurable: true });
  else out[key] = value;
}

/**
 * A field of a projected row whose value, read on first use, is not JSON (what was stepped over is checked only for
 * its strings and brackets): the file reader names the line it came from.
 */
export class LazyFieldError extends Error {
  constructor(
    readonly field: string,
    reason: string,
  ) {
    super(`not valid JSON (${field}: ${reason})`);
  }
}

/**
 * Where a transient row's values not parsed yet are: per such field its name, the text it is in (the row's, or the
 * value's own) and its start and end there. Under a symbol, so no reader of fields sees it; the accessors (one pair
 * per field name, shared by every row) find it.
 */
const UNPARSED = Symbol('unparsed values');
type Unparsed = Array<string | number>;

/** The field as a plain property from now on. */
function settle(row: Obj, key: string, value: unknown): unknown {
  Object.defineProperty(row, key, { value, writable: true, enumerable: true, configurable: true });
  return value;
}

function parseUnparsed(row: Obj, key: string): unknown {
  const spans = (row as { [UNPARSED]: Unparsed })[UNPARSED];
  for (let i = spans.length - 4; i >= 0; i -= 4) {
    if (spans[i] !== key) continue;
    try {
      return JSON.parse((spans[i + 1] as string).slice(spans[i + 2] as number, spans[i + 3] as number));
    } catch (error) {
      throw new LazyFieldError(key, (error as Error).message);
    }
  }
  return undefined;
}

const accessors = new Map<string, PropertyDescriptor>();

/** The accessor pair of a field name (a closure per row costs some 0.7 us; one pair per name a fifth of that). */
function accessorOf(key: string): PropertyDescriptor {
  let found = accessors.get(key);
  if (!found) {
    found = {
      get(this: Obj) {
        return settle(this, key, parseUnparsed(this, key));
      },
      set(this: Obj, value: unknown) {
        settle(this, key, value);
      },
      enumerable: true,
      configurable: true,
    };
    if (accessors.size < 1000) accessors.set(key, found);
  }
  return found;
}

/** A large value held as an accessor that parses it once, on first read (and a plain property once read or written). */
export function putLazy(out: Obj, key: string, text: string, start: number, end: number): void {
  const held = out as { [UNPARSED]?: Unparsed };
  const unparsed = held[UNPARSED];
  // A symbol key: no field reader sees it (Object.keys, JSON.stringify and for-in skip symbols).
  if (unparsed) unparsed.push(key, text, start, end);
  else held[UNPARSED] = [key, text, start, end];
  Object.defineProperty(out, key, accessorOf(key));
}

/** Where a late field's row keeps its text (a symbol: no field reader sees it). */
const ROW_TEXT = Symbol('row text');

/** Finds field `key` in a row's text: its value, undefined when the row has none. */
export type FindField = (text: string, key: string) => unknown;

/**
 * The prototype of rows with late fields: a getter per field that finds it (`find`) in the row's text on first read
 * and makes it a plain own property (a field the row does not have becomes a hidden undefined, looked for once).
 */
export function lateRowOf(names: readonly string[], find: FindField): object {
  const proto: Obj = {};
  for (const key of names) {
    Object.defineProperty(proto, key, {
      get(this: Obj) {
        const value = find((this as { [ROW_TEXT]: string })[ROW_TEXT], key);
        if (value === undefined) {
          Object.defineProperty(this, key, { value, writable: true, enumerable: false, configurable: true });
          return value;
        }
        return settle(this, key, value);
      },
      set(this: Obj, value: unknown) {
        settle(this, key, value);
      },
      enumerable: false,
      configurable: true,
    });
  }
  return proto;
}

/** A new row of a projection with late fields, holding the text they are found in. */
export function newLateRow(proto: object, text: string): Obj {
  const row = Object.create(proto) as Obj;
  (row as { [ROW_TEXT]: string })[ROW_TEXT] = text;
  return row;
}
