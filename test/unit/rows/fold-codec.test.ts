// The kept folds' encoding (main/rows/fold-codec.ts): plain data back exactly as it went in, maps keyed by task in
// their flat form, anything else refused, and bytes it did not write refused rather than misread.
import { describe, expect, it } from 'vitest';
import { decodeFoldState, encodeFoldState } from '../../../main/rows/fold-codec';

const roundTrip = (value: unknown) => decodeFoldState(encodeFoldState(value));

describe('fold codec', () => {
  it('reads back plain data exactly: nested maps, sets, objects, arrays and every kind of number', () => {
    const value = {
      plan: { guarded: ['marker:x'], groupings: ['category', 'slice'], groupMetrics: ['pass_at_1'] },
      counts: new Map([['t1', 4], ['t2', 0]]),
      sums: new Map([['pass_at_1', new Map([['t1', [3, 4]], ['t2', [0, 4]], ['t3', []]])]]),
      labels: new Map([['t1', [1, 0, 1, 1]]]),
      holes: new Map([['t1', [1, , 2]]]),
      tally: { keys: ['t1', 't2', 't1 '], counts: [4, 2, 1], sums: [3, 0.5, -0] },
      arrays: { sparse: [1, , 2], sparseText: ['a', , 'b'], numberThenText: [1, 'x'], textThenNumber: ['x', 1], one: [7], oneText: [''] },
      mixed: new Map<unknown, unknown>([['a', 1], ['b', [1, 'x']], [3, null]]),
      names: new Set(['x', 'y', '']),
      numbers: [0, -0, 1.5, -2e-308, Number.MAX_VALUE, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY],
      text: ['ünïcödé', '\u{1F600}', '\ud800 lone surrogate', 'quote " and \\ backslash', '\n\t'],
      flags: [true, false, null, undefined],
      empty: { map: new Map(), set: new Set(), array: [], object: {} },
      first: null,
    };
    const back = roundTrip(value) as typeof value;
    expect(back).toEqual(value);
    expect(Object.is(back.numbers[1], -0)).toBe(true);
    expect(Number.isNaN(back.numbers[5])).toBe(true);
    expect([...(back.mixed as Map<unknown, unknown>).keys()]).toEqual(['a', 'b', 3]);
    expect([...back.sums.get('pass_at_1')!.keys()]).toEqual(['t1', 't2', 't3']); // order of first appearance kept
    expect(Object.keys(back)).toEqual(Object.keys(value));
    expect(Object.is(back.tally.sums[2], -0)).toBe(true);
    expect(back.arrays.sparse[1]).toBeUndefined(); // a hole reads back as undefined, never as a number
    back.tally.keys.push('t3'); // read back as plain arrays: a fold goes on adding to them
    back.tally.counts.push(1);
    expect(back.tally.counts).toEqual([4, 2, 1, 1]);
  });

  it('reads an object key named "__proto__" back as its own property (never as the prototype)', () => {
    const value = JSON.parse('{"__proto__": {"n": 1}, "constructor": 2, "plain": 3}') as Record<string, unknown>;
    const back = roundTrip(value) as Record<string, unknown>;
    expect(Object.keys(back)).toEqual(['__proto__', 'constructor', 'plain']);
    expect(Object.getPrototypeOf(back)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(back, '__proto__')?.value).toEqual({ n: 1 });
  });

  it('writes each distinct string once', () => {
    const tasks = Array.from({ length: 1000 }, (_, i) => `task_with_a_long_name_${i}`);
    const one = encodeFoldState(new Map(tasks.map((t) => [t, 1])));
    const three = encodeFoldState([new Map(tasks.map((t) => [t, 1])), new Map(tasks.map((t) => [t, [1, 2]])), new Map(tasks.map((t) => [t, 3]))]);
    // The second and third maps add their numbers and indexes, never the names again.
    expect(three.byteLength - one.byteLength).toBeLessThan(1000 * 40);
  });

  it('refuses what is not plain data', () => {
    for (const bad of [() => 1, new Date(0), new (class Point {})(), 1n, Symbol('s'), new Uint8Array(2)]) {
      expect(() => encodeFoldState({ bad })).toThrow(TypeError);
    }
  });

  it('refuses bytes it did not write, or that were cut short', () => {
    const bytes = encodeFoldState({ sums: new Map([['t1', [1, 2]]]), names: new Set(['a']) });
    expect(() => decodeFoldState(new Uint8Array(10))).toThrow(RangeError);
    const wrongMagic = new Uint8Array(bytes);
    wrongMagic[0] ^= 0xff;
    expect(() => decodeFoldState(wrongMagic)).toThrow(RangeError);
    expect(() => decodeFoldState(bytes.subarray(0, bytes.byteLength - 12))).toThrow();
    const lyingCount = new Uint8Array(bytes);
    new DataView(lyingCount.buffer).setUint32(8, 1_000_000, true); // more counts than there are
    expect(() => decodeFoldState(lyingCount)).toThrow(RangeError);
  });

  it('reads bytes at any offset in their buffer (SQLite hands out pooled Buffers)', () => {
    const bytes = encodeFoldState(new Map([['t', [0.25, 4]]]));
    const shifted = new Uint8Array(bytes.byteLength + 3);
    shifted.set(bytes, 3);
    expect(decodeFoldState(shifted.subarray(3))).toEqual(new Map([['t', [0.25, 4]]]));
  });
});
