// A row's JSON text before and after its verdict, with the row stringified once: a graded run sends each row to
// its judge as JSON and stores it again as JSON with the verdict on it, and the keys a verdict writes are few
// and small (VERDICT_KEYS: reward, lineage, ...) beside the steps, messages and tools it leaves alone. So the
// keys a verdict never writes are stringified once, in runs of neighbouring keys, and only the verdict's keys
// each time the text is made. text(row) equals JSON.stringify(row) (test/unit/judges/verdict-json.test.ts),
// falling back to exactly that whenever the row's keys are not what they were when the template was made.
import { VERDICT_KEYS } from './apply-verdict';

type Obj = Record<string, unknown>;

export interface RowJson {
  /** JSON.stringify(row) of the same row, as it stands now (its verdict applied or not). */
  text(row: Obj): string;
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
  const text = JSON.stringify(part);
  return text.slice(1, -1);
}

const sameKeysUpTo = (keys: string[], now: string[]): boolean => {
  if (now.length < keys.length) return false;
  for (let i = 0; i < keys.length; i++) if (keys[i] !== now[i]) return false;
  return true;
};

/**
 * Made from the row as it lands (before its verdict). Only the verdict's keys may change after this (applyVerdict
 * writes nothing else); keys added after the template's come after its own, in the order they were added.
 */
export function rowJson(row: Obj): RowJson {
  const keys = Object.keys(row);
  // '__proto__' as an own key cannot be copied onto a plain object by assignment, and an own toJSON changes what
  // JSON.stringify writes: such a row is stringified whole, each time.
  if (keys.includes('__proto__') || keys.includes('toJSON')) return { text: (now) => JSON.stringify(now) };
  /** Fixed runs of members as text, and the verdict's keys (by name) between them, in the row's key order. */
  const layout: Array<{ text: string } | string> = [];
  let runFrom = 0;
  for (let i = 0; i <= keys.length; i++) {
    if (i < keys.length && !VERDICT_KEYS.has(keys[i])) continue;
    if (i > runFrom) layout.push({ text: membersText(row, keys, runFrom, i) });
    if (i < keys.length) layout.push(keys[i]);
    runFrom = i + 1;
  }
  const member = (now: Obj, key: string, into: string[]) => {
    const value = JSON.stringify(now[key]);
    if (value !== undefined) into.push(`${quote(key)}:${value}`);
  };
  return {
    text(now) {
      const nowKeys = Object.keys(now);
      if (!sameKeysUpTo(keys, nowKeys)) return JSON.stringify(now);
      const pieces: string[] = [];
      for (const entry of layout) {
        if (typeof entry === 'string') member(now, entry, pieces);
        else if (entry.text !== '') pieces.push(entry.text);
      }
      for (let i = keys.length; i < nowKeys.length; i++) {
        // An added key that is not the verdict's: this row changed beyond what the template knows.
        if (!VERDICT_KEYS.has(nowKeys[i])) return JSON.stringify(now);
        member(now, nowKeys[i], pieces);
      }
      return `{${pieces.join(',')}}`;
    },
  };
}
