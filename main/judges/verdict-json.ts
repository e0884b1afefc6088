// A row's JSON text before and after its verdict, with the row stringified once: a graded run sends each row to
// its judge as JSON and stores it again as JSON with the verdict on it, and the keys a verdict writes are few
// and small (VERDICT_KEYS: reward, lineage, ...) beside the steps, messages and tools it leaves alone. The runs of
// untouched members are stringified once; both texts are ropes over them and the verdict's own members, written
// anew. Both equal what JSON.stringify writes (test/unit/judges/verdict-json.test.ts). While the row waits for its
// verdict only its text is held, not the row's objects (less for the GC to copy).
import { VERDICT_KEYS } from './apply-verdict';

type Obj = Record<string, unknown>;

export interface RowJson {
  /** JSON.stringify(row), the row as it was given. */
  readonly text: string;
  /**
   * JSON.stringify of that row with its verdict applied, reading only the verdict's keys from `graded`: the row
   * itself graded in place, or any object applyVerdict wrote the same verdict onto (verdictBase). Keys the verdict
   * adds come after the row's own, in the order it added them (as on a row graded in place).
   */
  graded(graded: Obj): string;
}

const quoted = new Map<string, string>();
const quote = (key: string): string => {
  let found = quoted.get(key);
  if (found === undefined) {
    found = JSON.stringify(key);
    if (quoted.size < 1024) quoted.set(key, found);
  }
  return found;
};

/** The members of keys[from, to) as JSON, without braces ('' when every value there is one JSON leaves out). */
function membersText(row: Obj, keys: string[], from: number, to: number): string {
  const part: Obj = {};
  for (let i = from; i < to; i++) part[keys[i]] = row[keys[i]];
  return JSON.stringify(part).slice(1, -1);
}

/** `"key":value`, or '' when JSON leaves the value out (undefined, a function). */
function memberText(row: Obj, key: string): string {
  const value = JSON.stringify(row[key]);
  return value === undefined ? '' : `${quote(key)}:${value}`;
}

/**
 * The pieces joined by commas (empty ones left out) inside braces, by `+`: V8 makes that a rope over the pieces
 * instead of copying them, and the rope is copied once, where it is written (to the judge, to SQLite).
 */
function braced(pieces: readonly string[]): string {
  let out = '';
  for (const piece of pieces) if (piece !== '') out = out === '' ? piece : out + ',' + piece;
  return '{' + out + '}';
}

/** What applyVerdict reads of a row and writes onto it: a stand-in to grade while the row itself is let go. */
export function verdictBase(row: Obj): Obj {
  const base: Obj = {};
  if (Object.hasOwn(row, 'scenario_id')) base.scenario_id = row.scenario_id;
  if (Object.hasOwn(row, 'id')) base.id = row.id;
  for (const key of Object.keys(row)) if (VERDICT_KEYS.has(key)) base[key] = row[key];
  return base;
}

export function rowJson(row: Obj): RowJson {
  const keys = Object.keys(row);
  // '__proto__' as an own key cannot be copied onto a plain object by assignment, and an own toJSON changes what
  // JSON.stringify writes: such a row is stringified whole, and graded by a copy of it.
  if (keys.includes('__proto__') || keys.includes('toJSON')) return wholeRowJson(row);
  // The row's members in order: runs of untouched keys as one piece each, each verdict key as a piece of its own
  // ('' when JSON leaves its value out, so that its slot is kept).
  const pieces: string[] = [];
  /** Per piece: the verdict key it holds, or null for a run of untouched members. */
  const holds: Array<string | null> = [];
  let runFrom = 0;
  for (let i = 0; i <= keys.length; i++) {
    if (i < keys.length && !VERDICT_KEYS.has(keys[i])) continue;
    if (i > runFrom) pieces.push(membersText(row, keys, runFrom, i)), holds.push(null);
    if (i < keys.length) pieces.push(memberText(row, keys[i])), holds.push(keys[i]);
    runFrom = i + 1;
  }
  return {
    text: braced(pieces),
    graded(graded) {
      const out: string[] = [];
      for (let p = 0; p < holds.length; p++) out.push(holds[p] === null ? pieces[p] : memberText(graded, holds[p]!));
      for (const key of Object.keys(graded)) if (VERDICT_KEYS.has(key) && !holds.includes(key)) out.push(memberText(graded, key));
      return braced(out);
    },
  };
}

/** The plain way, for a row the pieces cannot be cut from (its own '__proto__' or toJSON): it is held whole. */
function wholeRowJson(row: Obj): RowJson {
  return {
    text: JSON.stringify(row),
    graded(graded) {
      const out: Obj = { ...row };
      for (const key of Object.keys(graded)) if (VERDICT_KEYS.has(key)) out[key] = graded[key];
      return JSON.stringify(out);
    },
  };
}
