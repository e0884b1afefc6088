// JSON read with each object's key order kept as written. A JavaScript object lists integer-like keys first
// ({"2": x, "1": y} iterates "1", "2"), while Python's dict keeps the text's order, and some SDK rules depend on it
// (rubric verdicts: when two keys name one criterion, the later one wins). Objects come back plain, with their
// written order under KEY_ORDER (not enumerable); orderedEntries reads it. Python's json.loads also takes NaN,
// Infinity and -Infinity, and so does this.

export const KEY_ORDER: unique symbol = Symbol.for('while-desk.key-order');

type Obj = Record<string, unknown> & { [KEY_ORDER]?: string[] };

export class OrderedJsonError extends SyntaxError {}

/** The object's entries in the order its text wrote them (when read by parseOrderedJson), else Object.entries. */
export function orderedEntries(object: Record<string, unknown>): Array<[string, unknown]> {
  const order = (object as Obj)[KEY_ORDER];
  if (!Array.isArray(order)) return Object.entries(object);
  return order.filter((key) => Object.hasOwn(object, key)).map((key) => [key, object[key]]);
}

/** Copies an object's written key order onto another built from it (its keys unchanged). */
export function keepKeyOrder<T extends object>(from: object, to: T): T {
  const order = (from as Obj)[KEY_ORDER];
  if (Array.isArray(order)) Object.defineProperty(to, KEY_ORDER, { value: order, enumerable: false });
  return to;
}

const WORDS: Array<[string, unknown]> = [['true', true], ['false', false], ['null', null], ['NaN', NaN], ['Infinity', Infinity], ['-Infinity', -Infinity]];
const NUMBER = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;

export function parseOrderedJson(text: string): unknown {
  let at = 0;
  const fail = (what: string): never => {
    throw new OrderedJsonError(`${what} at position ${at}`);
  };
  const space = () => {
    while (at < text.length && (text[at] === ' ' || text[at] === '\t' || text[at] === '\n' || text[at] === '\r')) at++;
  };
  const string = (): string => {
    const start = at;
    at++;
    while (at < text.length && text[at] !== '"') {
      if (text[at] === '\\') at++;
      else if (text.charCodeAt(at) < 0x20) fail('a control character in a string');
      at++;
    }
    if (at >= text.length) fail('an unterminated string');
    at++;
    return JSON.parse(text.slice(start, at)) as string;
  };
  const value = (depth: number): unknown => {
    if (depth > 512) fail('nesting too deep');
    space();
    const ch = text[at];
    if (ch === '{') {
      at++;
      const out: Obj = {};
      const order: string[] = [];
      space();
      if (text[at] === '}') return at++, keepOrder(out, order);
      for (;;) {
        space();
        if (text[at] !== '"') fail('a key (a string) expected');
        const key = string();
        space();
        if (text[at] !== ':') fail('":" expected');
        at++;
        const item = value(depth + 1);
        if (!Object.hasOwn(out, key)) order.push(key);
        Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
        space();
        if (text[at] === ',') at++;
        else if (text[at] === '}') return at++, keepOrder(out, order);
        else fail('"," or "}" expected');
      }
    }
    if (ch === '[') {
      at++;
      const out: unknown[] = [];
      space();
      if (text[at] === ']') return at++, out;
      for (;;) {
        out.push(value(depth + 1));
        space();
        if (text[at] === ',') at++;
        else if (text[at] === ']') return at++, out;
        else fail('"," or "]" expected');
      }
    }
    if (ch === '"') return string();
    for (const [word, result] of WORDS) if (text.startsWith(word, at)) return (at += word.length), result;
    NUMBER.lastIndex = at;
    const number = NUMBER.exec(text);
    if (!number) return fail('a JSON value expected');
    at += number[0].length;
    return Number(number[0]);
  };
  const result = value(0);
  space();
  if (at !== text.length) fail('extra text after the JSON value');
  return result;
}

function keepOrder(out: Obj, order: string[]): Obj {
  Object.defineProperty(out, KEY_ORDER, { value: order, enumerable: false });
  return out;
}
