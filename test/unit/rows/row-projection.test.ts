// Field projection (main/rows/row-projection.ts): a row's JSON text read for some of its top-level fields must give
// exactly what JSON.parse of the whole text gives for them (pickFields), or say it cannot read the text (undefined),
// on rows of every shape: nested values, escapes, spacing, repeated keys, keys spelled with escapes, __proto__.
import { describe, expect, it } from 'vitest';
import { LazyFieldError, pickFields, projection, projectRows, projectText } from '../../../main/rows/row-projection';

type Obj = Record<string, unknown>;

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

const NAMES = ['reward', 'scenario_id', 'prompt', 'final_text', 'messages', 'steps', 'sampling', 'markers', 'category', 'lineage', 'reason', '__proto__', 'a"b', 'é'];
const STRINGS = ['', 'ok', 'task_1', 'a fairly long string of more than thirteen characters', 'quote " and \\ backslash', 'tab\there', 'ünïcödé ☕ 𝄞', '\u0000\u001f', '{"not":"an object"}', '[1,2'];

function value(rand: () => number, depth: number): unknown {
  const r = rand();
  if (depth > 4 || r < 0.35) {
    const s = rand();
    if (s < 0.3) return STRINGS[Math.floor(rand() * STRINGS.length)];
    if (s < 0.55) return [0, 1, -0, 0.5, -12.25, 1e21, 123456789, 3e-7][Math.floor(rand() * 8)];
    if (s < 0.7) return [true, false, null][Math.floor(rand() * 3)];
    return `s${Math.floor(rand() * 1000)}`;
  }
  if (r < 0.65) return Array.from({ length: Math.floor(rand() * 4) }, () => value(rand, depth + 1));
  const out: Obj = {};
  for (let i = Math.floor(rand() * 4); i > 0; i--) out[NAMES[Math.floor(rand() * NAMES.length)]] = value(rand, depth + 1);
  return out;
}

/** A row's text: JSON.stringify's, Python's spacing, or spaces everywhere; sometimes a key repeated or written with escapes. */
function rowText(rand: () => number): string {
  const members: string[] = [];
  for (let i = Math.floor(rand() * 9); i > 0; i--) {
    const name = NAMES[Math.floor(rand() * NAMES.length)];
    let key = JSON.stringify(name);
    if (rand() < 0.1) key = `"${[...name].map((ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}"`;
    members.push(`${key}:${JSON.stringify(value(rand, 0))}`);
  }
  const style = rand();
  if (style < 0.5) return `{${members.join(',')}}`;
  if (style < 0.8) return `{${members.map((m) => m.replace(/^("(?:[^"\\]|\\.)*"):/, '$1: ')).join(', ')}}`;
  return ` { ${members.map((m) => m.replace(/^("(?:[^"\\]|\\.)*"):/, '$1 :\t')).join(' ,\n ')} } `;
}

const pick = (text: string, fields: readonly string[]) => pickFields(JSON.parse(text) as Obj, projection(fields));

describe('field projection', () => {
  it('gives what JSON.parse of the whole row gives for the fields, on 3,000 generated rows', () => {
    const rand = lcg(30);
    let read = 0;
    for (let i = 0; i < 3000; i++) {
      const text = rowText(rand);
      const fields = NAMES.filter(() => rand() < 0.4);
      const p = projection(fields);
      for (const transient of [false, true]) {
        const got = projectText(text, p, transient);
        if (got === undefined) continue;
        read++;
        const want = pick(text, fields);
        expect(JSON.stringify(got)).toBe(JSON.stringify(want));
        expect(Object.keys(got)).toEqual(Object.keys(want));
        for (const key of Object.keys(want)) expect(Object.is(got[key], want[key]) || JSON.stringify(got[key]) === JSON.stringify(want[key])).toBe(true);
      }
    }
    expect(read).toBeGreaterThan(5000); // almost every row is read, not handed back
  });

  it('gives, for late fields too, what JSON.parse of the whole row gives, on 3,000 generated rows', () => {
    const rand = lcg(31);
    let read = 0;
    for (let i = 0; i < 3000; i++) {
      const text = rowText(rand);
      const fields = NAMES.filter(() => rand() < 0.5);
      const late = fields.filter(() => rand() < 0.5);
      const got = projectText(text, projection(fields, [], late), true);
      if (got === undefined) continue;
      read++;
      const want = pick(text, fields);
      // Before any is read: the row's other fields, in the row's order.
      expect(Object.keys(got)).toEqual(Object.keys(want).filter((key) => !late.includes(key)));
      // Each field, late or not, reads as the whole row's (a repeated key: its last value; an absent one: undefined).
      // A row without __proto__ inherits one: read the field (a late getter runs), then take it only if it is the row's.
      const own = (row: Obj, key: string) => {
        const value = row[key];
        return key === '__proto__' && !Object.hasOwn(row, key) ? undefined : value;
      };
      for (const key of fields) expect(JSON.stringify(own(got, key))).toBe(JSON.stringify(own(want, key)));
      // Once read, the late fields are the row's own, in the row's keys.
      expect(Object.keys(got).sort()).toEqual(Object.keys(want).sort());
    }
    expect(read).toBeGreaterThan(2500);
  });

  it('steps over late fields and finds each in the row text on first read, then holds it as a plain field', () => {
    const messages = Array.from({ length: 20 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i}` }));
    const text = JSON.stringify({ final_text: '', messages, reason: 'a "quoted" reason', reward: 1 });
    const p = projection(['final_text', 'messages', 'reason', 'reward', 'task_id'], [], ['messages', 'reason', 'task_id']);
    const row = projectText(text, p, true) as Obj;
    expect(Object.keys(row)).toEqual(['final_text', 'reward']); // not looked for yet
    expect(row.messages).toEqual(messages);
    expect(Object.getOwnPropertyDescriptor(row, 'messages')?.value).toEqual(messages);
    expect(row.reason).toBe('a "quoted" reason');
    expect(row.task_id).toBeUndefined(); // absent: looked for once, and not one of the row's keys
    expect(Object.keys(row)).toEqual(['final_text', 'reward', 'messages', 'reason']);
    const written = projectText(text, p, true) as Obj;
    written.reason = 'replaced';
    expect(written.reason).toBe('replaced');
    // A late value that is not JSON says so when read; kept rows cannot have late fields.
    const bad = `{"messages":[${'{"a":"x"},'.repeat(20)}{"a" "x"}],"reward":1}`;
    const badRow = projectText(bad, projection(['messages', 'reward'], [], ['messages']), true) as Obj;
    expect(badRow.reward).toBe(1);
    expect(() => badRow.messages).toThrow(/not valid JSON \(messages: /);
    expect(() => projectText(text, p, false)).toThrow(/transient/);
  });

  it('keeps a repeated key at its first place with its last value, and __proto__ as an own field', () => {
    const text = '{"reward":0,"category":"a","reward":1,"__proto__":{"x":1}}';
    const got = projectText(text, projection(['reward', '__proto__', 'category'])) as Obj;
    expect(Object.keys(got)).toEqual(['reward', 'category', '__proto__']);
    expect(got.reward).toBe(1);
    expect(Object.getPrototypeOf(got)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(got, '__proto__')?.value).toEqual({ x: 1 });
  });

  it('finds a field whose key is written with escapes, and one whose name needs escapes', () => {
    expect(projectText('{"rew\\u0061rd":1,"a\\"b":2,"x":[1]}', projection(['reward', 'a"b']))).toEqual({ reward: 1, 'a"b': 2 });
  });

  it('hands back what it cannot read: not an object, not JSON, nested past its depth, a read value not JSON', () => {
    const p = projection(['reward']);
    for (const text of ['[1,2]', '"row"', '1', 'null', '', '{', '{"reward":1', '{"reward":1}}', '{"reward":1,}', '{"reward" 1}', '{reward:1}', '{"reward":tru}', '{"reward":01}', '{"reward":"a\tb"}', '{"reward":"\\x"}']) {
      expect(projectText(text, p)).toBeUndefined();
    }
    const deep = `{"a":${'['.repeat(12)}${']'.repeat(12)},"reward":1}`;
    expect(projectText(deep, p)).toBeUndefined();
    expect(pick(deep, ['reward'])).toEqual({ reward: 1 }); // what the caller then does
  });

  it('reads a large value of a transient row on first use, as a plain field from then on', () => {
    const messages = Array.from({ length: 20 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i}` }));
    const text = JSON.stringify({ final_text: 'hi', messages, reward: 1 });
    const row = projectText(text, projection(['messages', 'reward', 'final_text']), true) as Obj;
    expect(Object.getOwnPropertyDescriptor(row, 'messages')?.get).toBeTypeOf('function');
    expect(Object.keys(row)).toEqual(['final_text', 'messages', 'reward']);
    expect(JSON.stringify(row)).toBe(JSON.stringify({ final_text: 'hi', messages, reward: 1 }));
    expect(row.messages).toEqual(messages);
    expect(Object.getOwnPropertyDescriptor(row, 'messages')?.value).toEqual(messages);
    const copy = { ...(projectText(text, projection(['messages']), true) as Obj) };
    expect(copy.messages).toEqual(messages);
    const written = projectText(text, projection(['messages']), true) as Obj;
    written.messages = 'replaced';
    expect(written.messages).toBe('replaced');
    // Kept rows hold plain values.
    expect(Object.getOwnPropertyDescriptor(projectText(text, projection(['messages'])) as Obj, 'messages')?.value).toEqual(messages);
  });

  it('says which field is not JSON when a large value stepped over only for its brackets is read', () => {
    const text = `{"messages":[${'{"a":"x"},'.repeat(20)}{"a" "x"}],"reward":1}`;
    const row = projectText(text, projection(['messages', 'reward']), true) as Obj;
    expect(row.reward).toBe(1);
    expect(() => row.messages).toThrow(LazyFieldError);
    expect(() => row.messages).toThrow(/not valid JSON \(messages: /);
  });

  it('notes the first character of noted fields without handing them on', () => {
    const p = projection(['reward'], ['schema_version', 'reward']);
    expect(projectText('{"schema_version":"1","reward":"1"}', p)).toEqual({ reward: '1' });
    expect([...p.notes]).toEqual([0x22, 0x22]);
    expect(projectText('{"reward":1}', p)).toEqual({ reward: 1 });
    expect([...p.notes]).toEqual([0, 0x31]);
  });

  it('cuts rows already parsed to the fields, leaving values that are not objects as they are', () => {
    const rows = [{ reward: 1, steps: [1] }, null, [1], 'x', { steps: [] }];
    expect(projectRows(rows, ['reward'])).toEqual([{ reward: 1 }, null, [1], 'x', {}]);
    expect(projectRows(rows, 'row')).toBe(rows);
  });
});

describe('row shapes', () => {
  // Each test its own field list: a projection (and the shapes it learns) is kept per list in a thread.
  const KEYS = ['schema_version', 'prompt', 'steps', 'final_text', 'messages', 'scenario_id', 'reward', 'reason', 'sampling', 'lineage'];
  const styled = (rand: () => number, members: string[]) => {
    const style = rand();
    if (style < 0.6) return `{${members.join(',')}}`;
    if (style < 0.9) return `{${members.map((m) => m.replace(/^("(?:[^"\\]|\\.)*"):/, '$1: ')).join(', ')}}`;
    return ` { ${members.map((m) => m.replace(/^("(?:[^"\\]|\\.)*"):/, '$1 :\t')).join(' ,\n ')} } `;
  };
  const oneShape = (rand: () => number, keys = KEYS) => styled(rand, keys.map((key) => `${JSON.stringify(key)}:${JSON.stringify(value(rand, 0))}`));

  it('matches rows of one key order by their shape and gives what JSON.parse gives, kept or transient', () => {
    const rand = lcg(40);
    const fields = ['prompt', 'final_text', 'scenario_id', 'reward', 'sampling', 'lineage', 'shape-test-1'];
    const p = projection(fields);
    for (let i = 0; i < 2000; i++) {
      const text = oneShape(rand);
      const got = projectText(text, p, rand() < 0.5);
      expect(got).toBeDefined();
      expect(JSON.stringify(got)).toBe(JSON.stringify(pick(text, fields)));
    }
    expect(p.shapes.hits).toBeGreaterThan(1900); // all but the rows the walk read to learn the shape
  });

  it('walks the rows the shape does not fit (another order, another key, a key with escapes) and learns again when the rows change', () => {
    const rand = lcg(41);
    const fields = ['prompt', 'reward', 'reason', 'scenario_id', 'shape-test-2'];
    const p = projection(fields);
    const reordered = [...KEYS].reverse();
    for (let i = 0; i < 3000; i++) {
      const phase = Math.floor(i / 1000); // the rows of one order, then another, then both mixed with odd rows
      let text = phase === 0 ? oneShape(rand) : phase === 1 ? oneShape(rand, reordered) : oneShape(rand, rand() < 0.5 ? KEYS : [...KEYS, 'extra']);
      if (phase === 2 && rand() < 0.1) text = text.replace('"reward"', '"rew\\u0061rd"');
      const got = projectText(text, p);
      expect(JSON.stringify(got)).toBe(JSON.stringify(pick(text, fields)));
    }
    expect(p.shapes.learned).toBeLessThanOrEqual(8);
  });

  it('reads late and large values of a shaped row on first use, and says which one is not JSON', () => {
    const fields = ['final_text', 'messages', 'reason', 'reward', 'steps', 'shape-test-3'];
    const p = projection(fields, [], ['messages', 'reason']);
    const messages = Array.from({ length: 20 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn "${i}"` }));
    const steps = Array.from({ length: 10 }, (_, i) => ({ tool: 'lookup', result: { order: i, note: 'a long enough note' } }));
    for (let i = 0; i < 40; i++) {
      const text = JSON.stringify({ final_text: i % 3 ? `reply ${i}` : '', messages, reason: `why ${i}`, reward: i % 2, steps });
      const row = projectText(text, p, true) as Obj;
      expect(Object.keys(row)).toEqual(['final_text', 'reward', 'steps']);
      expect(row.steps).toEqual(steps);
      expect(row.messages).toEqual(messages);
      expect(row.reason).toBe(`why ${i}`);
    }
    expect(p.shapes.hits).toBeGreaterThan(30);
    const bad = JSON.stringify({ final_text: '', messages, reason: 'r', reward: 1, steps }).replace('"tool":"lookup"', '"tool" "lookup"');
    const row = projectText(bad, p, true) as Obj;
    expect(row.reward).toBe(1);
    expect(() => row.steps).toThrow(/not valid JSON \(steps: /);
  });

  it('keeps a repeated key of a shaped row at its first place with its last value', () => {
    const p = projection(['reward', 'category', 'shape-test-6']);
    for (let i = 0; i < 5; i++) {
      const got = projectText(`{"reward":0,"category":"c${i}","steps":[],"reward":${i}}`, p) as Obj;
      expect(Object.keys(got)).toEqual(['reward', 'category']);
      expect(got.reward).toBe(i);
    }
    expect(p.shapes.hits).toBeGreaterThan(3);
  });

  it('notes the first character of noted fields of a shaped row', () => {
    const p = projection(['reward', 'shape-test-4'], ['schema_version', 'reward']);
    for (let i = 0; i < 5; i++) expect(projectText(`{"schema_version":"1","steps":[],"reward":${i % 2}}`, p)).toEqual({ reward: i % 2 });
    expect([...p.notes]).toEqual([0x22, 0x30]); // the last row's: reward 0
    expect(projectText('{"schema_version":"1","steps":[],"reward":"0"}', p)).toEqual({ reward: '0' });
    expect([...p.notes]).toEqual([0x22, 0x22]);
    expect(p.shapes.hits).toBeGreaterThan(4);
  });

  it('hands back a shaped row it cannot read, as the walk does', () => {
    const p = projection(['reward', 'prompt', 'shape-test-5']);
    for (let i = 0; i < 5; i++) projectText(`{"prompt":"p${i}","steps":[1],"reward":1}`, p);
    for (const text of ['{"prompt":"p","steps":[1],"reward":01}', '{"prompt":"a\tb","steps":[1],"reward":1}', '{"prompt":"\\x","steps":[1],"reward":1}', `{"prompt":"p","steps":${'['.repeat(12)}${']'.repeat(12)},"reward":1}`]) {
      expect(projectText(text, p)).toBeUndefined();
    }
  });
});
