import { describe, expect, it } from 'vitest';
import { isPyFloat, parsePyJson, pyDumps, pyFloat, withDumpsKept } from '../../../shared/schema/py-json';

describe('py-json', () => {
  it('keeps a whole float a float and an int an int', () => {
    const row = parsePyJson('{"a": 1.0, "b": 1, "c": 2e3, "d": 0.5, "e": -0.0, "f": [3.00, 1e-05]}') as Record<string, unknown>;
    expect(isPyFloat(row.a)).toBe(true);
    expect(isPyFloat(row.b)).toBe(false);
    expect(pyDumps(row)).toBe('{"a": 1.0, "b": 1, "c": 2000.0, "d": 0.5, "e": -0.0, "f": [3.0, 1e-05]}');
  });

  it('leaves numbers inside strings alone', () => {
    const text = '{"note": "version 1.0 of 2e5, ok", "n": 7}';
    const row = parsePyJson(text) as Record<string, unknown>;
    expect(row.note).toBe('version 1.0 of 2e5, ok');
    expect(pyDumps(row)).toBe(text);
  });

  it('writes strings as ensure_ascii does and floats as repr does', () => {
    expect(pyDumps({ s: 'café \u2028 "q" \\ \n\u007f', x: pyFloat(1e16), y: 0.0001, z: 1e-5 })).toBe('{"s": "caf\\u00e9 \\u2028 \\"q\\" \\\\ \\n\\u007f", "x": 1e+16, "y": 0.0001, "z": 1e-05}');
    expect(pyDumps([pyFloat(1), NaN, Infinity, -Infinity, true, null])).toBe('[1.0, NaN, Infinity, -Infinity, true, null]');
    expect(pyDumps({ a: [1, { b: 2 }] }, ',', ': ')).toBe('{"a": [1,{"b": 2}]}');
  });

  it('writes a number the same however often it has been written before (the text caches)', () => {
    // 0.0 and -0.0 share a Map key; 19.99 and its box share a cached text; keys come first and later in an object.
    expect(pyDumps([pyFloat(0), pyFloat(-0), pyFloat(0), 19.99, pyFloat(19.99), 19.99])).toBe('[0.0, -0.0, 0.0, 19.99, 19.99, 19.99]');
    expect(pyDumps({ k: 1, j: { k: 2, j: 3 } })).toBe('{"k": 1, "j": {"k": 2, "j": 3}}');
    expect(pyDumps({ k: 1, j: { k: 2, j: 3 } }, ',', ':')).toBe('{"k":1,"j":{"k":2,"j":3}}');
    expect(pyDumps({ k: 1, j: { k: 2, j: 3 } }, ', ', ': ', true)).toBe('{"j": {"j": 3, "k": 2}, "k": 1}');
    // default=str on a value whose str() writes JSON itself: the inner call must not share the outer one's pieces
    const strange = Object.assign(() => 0, { toString: () => pyDumps({ inner: [1, 2] }) });
    expect(pyDumps({ a: [strange, 'b'] })).toBe('{"a": ["{\\"inner\\": [1, 2]}", "b"]}');
  });

  it('boxed floats still do arithmetic and compare', () => {
    const row = parsePyJson('{"r": 1.0}') as { r: number };
    expect(+row.r + 1).toBe(2);
    expect(JSON.stringify(row)).toBe('{"r":1}');
  });

  it('writes an object once while withDumpsKept runs, the same text each time, and keeps nothing after', () => {
    const result = { status: 'ok', items: [{ price: 19.99, qty: pyFloat(1) }], note: 'é' };
    let reads = 0;
    const counted = { ...result, get status() { reads++; return 'ok'; } };
    const inside = withDumpsKept(() => [pyDumps(counted), pyDumps(counted), pyDumps(counted, ',', ': '), withDumpsKept(() => pyDumps(counted))]);
    expect(inside[0]).toBe(pyDumps(result));
    expect(inside[1]).toBe(inside[0]);
    expect(inside[2]).toBe(pyDumps(result, ',', ': '));
    expect(inside[3]).toBe(inside[0]);
    expect(reads).toBe(2); // once with the default separators (kept), once with others (not kept)
    pyDumps(counted);
    expect(reads).toBe(3); // nothing kept once it returned
  });
});
