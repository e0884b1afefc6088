import { describe, expect, it } from 'vitest';
import { PyRandom } from '../../../shared/stats/random';

// Reference values printed by CPython 3.11's random.Random (stats-semantics §2).
describe('PyRandom (MT19937 as CPython)', () => {
  it('random() after integer seeding matches CPython', () => {
    expect(new PyRandom(0).random()).toBe(0.8444218515250481);
    expect(new PyRandom(1).random()).toBe(0.13436424411240122);
    expect(new PyRandom(7).random()).toBe(0.32383276483316237);
    expect(new PyRandom(123456789).random()).toBe(0.6414006161858726);
    expect(new PyRandom(2n ** 40n + 5n).random()).toBe(0.5043802970418443);
    expect(new PyRandom(-5).random()).toBe(0.6229016948897019); // |seed| is used
  });

  it('randrange and getrandbits consume outputs as CPython does', () => {
    const r = new PyRandom(42);
    expect(Array.from({ length: 8 }, () => r.randrange(10))).toEqual([1, 0, 4, 3, 3, 2, 1, 8]);
    expect([r.randrange(1), r.randrange(1)]).toEqual([0, 0]);
    expect(r.randrange(2 ** 32)).toBe(136505587);
    expect(r.getrandbits(7)).toBe(11);
    expect(r.getrandbits(40)).toBe(254342113419);
    expect(r.getrandbits(53)).toBe(5422501460899537);
  });

  it('sample uses the pool and the set strategies like CPython', () => {
    const r = new PyRandom(3);
    const range = (n: number) => Array.from({ length: n }, (_, i) => i);
    expect(r.sample(range(10), 4)).toEqual([3, 8, 2, 7]);
    expect(r.sample(range(1000), 5)).toEqual([937, 618, 485, 640, 594]);
    expect(r.sample(range(30), 12)).toEqual([2, 19, 0, 26, 15, 8, 17, 7, 6, 25, 23, 28]);
    expect(() => r.sample(range(3), 4)).toThrow(/larger than population/);
  });

  it('string seeds use UTF-8 + SHA-512, and shuffle walks from the end', () => {
    expect(new PyRandom('').random()).toBe(0.9602256525641875);
    expect(new PyRandom('héllo').random()).toBe(0.013203794245314593);
    const a = Array.from({ length: 10 }, (_, i) => i);
    new PyRandom('0:before:scn_1').shuffle(a);
    expect(a).toEqual([2, 5, 0, 4, 8, 7, 9, 3, 6, 1]);
    const b = [0, 1, 2, 3, 4, 5];
    new PyRandom(99).shuffle(b);
    expect(b).toEqual([4, 0, 2, 1, 5, 3]);
  });

  it('rejects an empty range', () => {
    expect(() => new PyRandom(0).randrange(0)).toThrow(/empty range/);
  });
});
