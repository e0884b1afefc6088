// Per-task sums (pass_at's task tally, delta_report's per-metric sums): counts and sums per task in order of first
// appearance, merged across parts (and threads: sums arrive by structured clone, without their index) exactly as
// the sums of all the values.
import { describe, expect, it } from 'vitest';
import { addToTask, emptyTaskSums, meansOf, mergeTaskSums, sharedTaskKeys, type TaskSums } from '../../../shared/stats/task-sums';
import { addTaskLabel, taskCountOf, taskTally, tallyRows } from '../../../shared/stats/task-tally';

/** Values of tasks interleaved (a, b, a, c, b, ...), new tasks joining as it goes: most cuts fall inside tasks, and after most cuts a task starts. */
const values: Array<[string, number]> = Array.from({ length: 60 }, (_, i) => [`t${(i * 7) % (2 + Math.floor(i / 8))}`, (i * 3) % 4 === 0 ? 1 : (i % 5) / 4]);

function sumsOf(part: Array<[string, number]>): TaskSums {
  const sums = emptyTaskSums();
  for (const [key, value] of part) addToTask(sums, key, 1, value);
  return sums;
}

describe('task sums', () => {
  it('counts and sums each task in order of first appearance; its means in that order', () => {
    const sums = sumsOf([['b', 1], ['a', 0.25], ['b', 0], ['b', 0.5], ['c', 1]]);
    expect(sums).toEqual({ keys: ['b', 'a', 'c'], counts: [3, 1, 1], sums: [1.5, 0.25, 1] });
    expect([...meansOf(sums)]).toEqual([['b', 0.5], ['a', 0.25], ['c', 1]]);
  });

  it('merges parts cut anywhere into the sums of all the values, across a structured clone', () => {
    const whole = sumsOf(values);
    for (let cut = 0; cut <= values.length; cut++) {
      const merged = mergeTaskSums(sumsOf(values.slice(0, cut)), structuredClone(sumsOf(values.slice(cut))));
      expect(merged, `cut at ${cut}`).toEqual(whole);
    }
  });

  it('keeps adding after a merge (the index the merge dropped is built again)', () => {
    const merged = mergeTaskSums(sumsOf(values.slice(0, 20)), sumsOf(values.slice(20, 40)));
    expect(merged.keys.length).toBeGreaterThan(sumsOf(values.slice(0, 20)).keys.length); // the later part brought tasks of its own
    for (const [key, value] of values.slice(40)) addToTask(merged, key, 1, value);
    addToTask(merged, 'new', 1, 1);
    expect(merged).toEqual(sumsOf([...values, ['new', 1]]));
  });

  it('a clone carries no index: it is plain data, and adds on from its arrays', () => {
    const clone = structuredClone(sumsOf(values.slice(0, 30)));
    expect(Object.keys(clone)).toEqual(['keys', 'counts', 'sums']);
    for (const [key, value] of values.slice(30)) addToTask(clone, key, 1, value);
    expect(clone).toEqual(sumsOf(values));
  });

  it('gives the means of the sums as they are now: a change made after the means were read shows in the next read', () => {
    const sums = sumsOf([['a', 1], ['b', 0]]);
    const first = meansOf(sums);
    expect(meansOf(sums)).toBe(first); // read again unchanged: the same map
    addToTask(sums, 'a', 1, 0);
    expect([...meansOf(sums)]).toEqual([['a', 0.5], ['b', 0]]);
    mergeTaskSums(sums, sumsOf([['c', 1], ['b', 1]]));
    expect([...meansOf(sums)]).toEqual([['a', 0.5], ['b', 0.5], ['c', 1]]);
  });

  it('adds whole counts; pairs tasks in code-point order', () => {
    const sums = emptyTaskSums();
    addToTask(sums, 'x', 4, 1);
    addToTask(sums, 'y', 2, 2);
    addToTask(sums, 'x', 1, 1);
    expect(sums).toEqual({ keys: ['x', 'y'], counts: [5, 2], sums: [2, 2] });
    expect(sharedTaskKeys(sumsOf([['\u{1F600}', 1], ['b', 0], ['\uFFFD', 1], ['a', 1]]), sumsOf([['a', 0], ['\uFFFD', 0], ['\u{1F600}', 1]]))).toEqual(['a', '\uFFFD', '\u{1F600}']);
  });
});

describe('task tally (task sums of 0/1 labels)', () => {
  it("counts labels, gives a task's counts, and tallies rows by their task key and group label", () => {
    const tally = taskTally();
    for (const [key, label] of [['b', 1], ['a', 0], ['b', 0], ['b', 1], ['c', 1]] as const) addTaskLabel(tally, key, label);
    expect(tally).toEqual({ keys: ['b', 'a', 'c'], counts: [3, 1, 1], sums: [2, 0, 1] });
    expect(taskCountOf(tally, 'b')).toEqual({ n: 3, passes: 2 });
    expect(taskCountOf(tally, 'z')).toBeUndefined();
    const rows = [{ scenario_id: 'q', reward: 1 }, { task_id: 'r', reward: 0 }, { scenario_id: 'q', reward: 0.5 }, { scenario_id: 'q', reward: 0 }, 'not a row'];
    expect(tallyRows(rows)).toEqual({ keys: ['q', 'r'], counts: [2, 1], sums: [1, 0] });
  });
});

describe("pass_at's per_task from the tally", () => {
  it('keeps a task named like an Object.prototype property as its own key', async () => {
    const { passAt } = await import('../../../shared/stats/pass-at');
    const rows = ['__proto__', 'constructor', 'toString', 'a'].flatMap((id) => [{ scenario_id: id, reward: 1 }, { scenario_id: id, reward: 0 }]);
    const perTask = passAt(rows, { intervals: false }).per_task;
    expect(Object.keys(perTask)).toEqual(['__proto__', 'constructor', 'toString', 'a']);
    expect(Object.getOwnPropertyDescriptor(perTask, '__proto__')?.value).toBe(0.5);
    expect(Object.getPrototypeOf(perTask)).toBe(Object.prototype);
  });
});
