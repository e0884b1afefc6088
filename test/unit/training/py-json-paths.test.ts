// parsePyJson's float scan and pyDumps' piece writer against references: Python 3.11's own json.dumps(json.loads(t))
// (test/fixtures/py-json/roundtrip.json, made by running Python on the texts), and, on generated texts full of
// numbers inside strings, escaped quotes and backslashes, the rewrite-every-token parser the scan replaced.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isPyFloat, parsePyJson, pyDumps, pyFloat } from '../../../shared/schema/py-json';

interface Case {
  text: string;
  dumps: string;
  dumps_wire: string;
}

const fixture = JSON.parse(fs.readFileSync(path.resolve('test/fixtures/py-json/roundtrip.json'), 'utf8')) as { cases: Case[] };

// The parser as it was before the scan: every string and number token matched, each whole float rewritten to a
// marked string, then the whole tree walked to box them. Slow and plainly right: the reference here.
const TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/g;
const MARK = '\u0000ref';
function referenceUnmark(value: unknown): unknown {
  if (typeof value === 'string') return value.startsWith(MARK) ? pyFloat(Number(value.slice(MARK.length))) : value;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(referenceUnmark);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, referenceUnmark(v)]));
}
function referenceParse(text: string): unknown {
  const rewritten = text.replace(TOKENS, (token) => {
    if (token.startsWith('"') || !/[.eE]/.test(token) || !Number.isInteger(Number(token))) return token;
    return JSON.stringify(MARK + token);
  });
  return referenceUnmark(JSON.parse(rewritten));
}

/** The tree with each PyFloat shown as {f: value} (and -0 kept), so toEqual tells boxed from plain. */
function shape(value: unknown): unknown {
  if (isPyFloat(value)) return { f: Object.is(value.valueOf(), -0) ? '-0' : value.valueOf() };
  if (typeof value === 'number') return Object.is(value, -0) ? '-0 int' : value;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(shape);
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shape(v)]));
}

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const PIECES = ['1.0', '.0', '2e5', '1E+2', '-0.0', '10.0e-3', '"', '\\', '\\"', ',', ':', ' ', ']', '}', '[', '{', 'é', '\u2028', '😀', 'x', '\n', '3.00,'];
const NUMBERS = ['1.0', '2.0', '-0.0', '0.0', '1e5', '1E+2', '100.00', '3.5', '7', '-12', '1e-06', '0.25', '10.0e-3', '1.0e0', '2.50'];

function randomText(rand: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
  const str = () => JSON.stringify(Array.from({ length: Math.floor(rand() * 6) }, () => pick(PIECES)).join(''));
  const ws = () => (rand() < 0.3 ? pick([' ', '\n', '\t', '  ']) : '');
  const value = (depth: number): string => {
    const r = rand();
    if (depth > 3 || r < 0.35) return rand() < 0.5 ? pick(NUMBERS) : rand() < 0.8 ? str() : pick(['true', 'false', 'null']);
    if (r < 0.7) return `{${Array.from({ length: Math.floor(rand() * 4) }, () => `${ws()}${str()}${ws()}:${ws()}${value(depth + 1)}${ws()}`).join(',')}}`;
    return `[${Array.from({ length: Math.floor(rand() * 4) }, () => `${ws()}${value(depth + 1)}${ws()}`).join(',')}]`;
  };
  return `{"k":${value(0)}, "x": ${value(1)}}`;
}

describe('parsePyJson and pyDumps against Python', () => {
  it(`writes json.dumps(json.loads(text)) byte for byte on ${fixture.cases.length} texts`, () => {
    for (const c of fixture.cases) {
      const parsed = parsePyJson(c.text);
      expect(pyDumps(parsed), c.text).toBe(c.dumps);
      expect(pyDumps(parsed, ',', ': '), c.text).toBe(c.dumps_wire);
    }
  });

  it('boxes exactly the whole floats outside strings', () => {
    const row = parsePyJson('{"s": "a: 1.0, b", "q": "say \\"1.0\\", then", "b": "\\\\", "t": 2.0, "v": [1E+2, 1e5, -2.50, 10.0e-3, -0.0, 7]}') as Record<string, unknown>;
    expect(shape(row)).toEqual({ s: 'a: 1.0, b', q: 'say "1.0", then', b: '\\', t: { f: 2 }, v: [{ f: 100 }, { f: 100000 }, -2.5, 0.01, { f: '-0' }, 7] });
  });

  it('agrees with the rewrite-every-token parser on 3000 generated texts', () => {
    const rand = seeded(29);
    let boxed = 0;
    for (let i = 0; i < 3000; i++) {
      const text = randomText(rand);
      const ours = parsePyJson(text);
      expect(shape(ours), text).toEqual(shape(referenceParse(text)));
      expect(pyDumps(ours), text).toBe(pyDumps(referenceParse(text)));
      boxed += JSON.stringify(shape(ours)).split('{"f":').length - 1;
    }
    expect(boxed).toBeGreaterThan(500); // the texts do exercise the boxing
  });

  it('never takes a string of the row holding NUL for a rewritten token', () => {
    const row = parsePyJson('{"s": "\\u0000f1.0", "t": "\\u0000\\u0066", "x": 1.0}') as Record<string, unknown>;
    expect(shape(row)).toEqual({ s: '\u0000f1.0', t: '\u0000f', x: { f: 1 } });
    expect(pyDumps(row)).toBe('{"s": "\\u0000f1.0", "t": "\\u0000f", "x": 1.0}');
  });

  it('keeps the error of a text that is not JSON', () => {
    expect(() => parsePyJson('{"a": 1.0,')).toThrow(SyntaxError);
    expect(() => parsePyJson('{"a": 1.0 "b": 2}')).toThrow(SyntaxError);
  });
});

describe('pyDumps piece writer', () => {
  it('writes keys the same whether or not they were seen before, at every separator setting', () => {
    const value = { 'caf\u00e9': [1, pyFloat(2)], role: 'x', nested: { role: 'y', 'caf\u00e9': null } };
    const first = pyDumps(value);
    expect(first).toBe('{"caf\\u00e9": [1, 2.0], "role": "x", "nested": {"role": "y", "caf\\u00e9": null}}');
    expect(pyDumps(value)).toBe(first);
    expect(pyDumps(value, ',', ':')).toBe('{"caf\\u00e9":[1,2.0],"role":"x","nested":{"role":"y","caf\\u00e9":null}}');
    expect(pyDumps(value, ', ', ': ', true)).toBe('{"caf\\u00e9": [1, 2.0], "nested": {"caf\\u00e9": null, "role": "y"}, "role": "x"}');
  });

  it('leaves out undefined members, writes undefined array items as null, and str() of other values', () => {
    expect(pyDumps({ a: undefined, b: [undefined, 1], c: 10n })).toBe('{"b": [null, 1], "c": "10"}');
    expect(pyDumps(undefined)).toBe('null');
  });
});
