// Task ids and names sort as Python sorts str (by code point), as the SDK does: JavaScript's own string order
// (UTF-16 code units) differs where a character past U+FFFF meets one from U+E000 to U+FFFF.
import { describe, expect, it } from 'vitest';
import { sharedKeysSorted } from '../../../shared/stats/task-means';
import { codePointCompare } from '../../../shared/stats/task-order';

/** Python's sorted() on str: by each string's code points. */
const byCodePoints = (list: string[]) => [...list].sort((a, b) => {
  const x = [...a].map((c) => c.codePointAt(0) as number);
  const y = [...b].map((c) => c.codePointAt(0) as number);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
});

const ids = ['task_10', 'task_2', 'Task', '', 'ta', 'z\u{1F600}', 'z\uFF01', 'z\uE000', 'z\uD7FF', 'é', 'e\u0301', '\u{10000}', '\uFFFF', 'a\u{1F600}b', 'a\u{1F600}'];

describe('code-point order', () => {
  it('codePointCompare orders as Python does, astral characters after U+E000..U+FFFF', () => {
    expect([...ids].sort(codePointCompare)).toEqual(byCodePoints(ids));
    expect(codePointCompare('z\u{1F600}', 'z\uFF01')).toBe(1); // JavaScript's `<` says the opposite
    expect('z\u{1F600}' < 'z\uFF01').toBe(true);
    expect(codePointCompare('same', 'same')).toBe(0);
    expect(codePointCompare('ab', 'abc')).toBe(-1);
  });

  it('sharedKeysSorted gives the shared keys in that order, with and without astral characters', () => {
    const a = new Map(ids.map((id) => [id, 1]));
    const b = new Map(ids.filter((_, i) => i % 3 !== 0).map((id) => [id, 2]));
    expect(sharedKeysSorted(a, b)).toEqual(byCodePoints(ids.filter((_, i) => i % 3 !== 0)));
    const plain = ['task_3', 'task_1', 'task_20', 'x', 'A'];
    expect(sharedKeysSorted(new Map(plain.map((id) => [id, 0])), new Map(plain.slice(1).map((id) => [id, 0])))).toEqual(['A', 'task_1', 'task_20', 'x']);
  });
});
