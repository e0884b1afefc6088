// The task tally pass_at's fold keeps: counts per task in order of first appearance, merged across parts (and
// threads: a tally arrives by structured clone, without its index) exactly as one tally of all the labels.
import { describe, expect, it } from 'vitest';
import { addTaskCount, addTaskLabel, mergeTaskTallies, taskCountOf, taskRateMap, taskTally, tallyRows, type TaskTally } from '../../../shared/stats/task-tally';

/** Labels of tasks interleaved (a, b, a, c, b, ...), new tasks joining as it goes: most cuts fall inside tasks, and after most cuts a task starts. */
const labels: Array<[string, number]> = Array.from({ length: 60 }, (_, i) => [`t${(i * 7) % (2 + Math.floor(i / 8))}`, (i * 3) % 4 === 0 ? 1 : 0]);

function tallyOf(part: Array<[string, number]>): TaskTally {
  const tally = taskTally();
  for (const [key, label] of part) addTaskLabel(tally, key, label);
  return tally;
}

describe('task tally', () => {
  it('counts each task in order of first appearance', () => {
    const tally = tallyOf([['b', 1], ['a', 0], ['b', 0], ['b', 1], ['c', 1]]);
    expect(tally).toEqual({ keys: ['b', 'a', 'c'], sizes: [3, 1, 1], passes: [2, 0, 1] });
    expect(taskCountOf(tally, 'b')).toEqual({ n: 3, passes: 2 });
    expect(taskCountOf(tally, 'z')).toBeUndefined();
    expect([...taskRateMap(tally)]).toEqual([['b', 2 / 3], ['a', 0], ['c', 1]]);
  });

  it('merges parts cut anywhere into the tally of all the labels, across a structured clone', () => {
    const whole = tallyOf(labels);
    for (let cut = 0; cut <= labels.length; cut++) {
      const merged = mergeTaskTallies(tallyOf(labels.slice(0, cut)), structuredClone(tallyOf(labels.slice(cut))));
      expect(merged, `cut at ${cut}`).toEqual(whole);
    }
  });

  it('keeps counting after a merge (the index the merge dropped is built again)', () => {
    const merged = mergeTaskTallies(tallyOf(labels.slice(0, 20)), tallyOf(labels.slice(20, 40)));
    expect(merged.keys.length).toBeGreaterThan(tallyOf(labels.slice(0, 20)).keys.length); // the later part brought tasks of its own
    for (const [key, label] of labels.slice(40)) addTaskLabel(merged, key, label);
    addTaskLabel(merged, 'new', 1);
    expect(merged).toEqual(tallyOf([...labels, ['new', 1]]));
    expect(taskCountOf(merged, 'new')).toEqual({ n: 1, passes: 1 });
  });

  it('a clone carries no index: it is plain data, and counts on from its arrays', () => {
    const clone = structuredClone(tallyOf(labels.slice(0, 30)));
    expect(Object.keys(clone)).toEqual(['keys', 'sizes', 'passes']);
    for (const [key, label] of labels.slice(30)) addTaskLabel(clone, key, label);
    expect(clone).toEqual(tallyOf(labels));
  });

  it('adds whole counts, and tallies rows by their task key and group label', () => {
    const tally = taskTally();
    addTaskCount(tally, 'x', 4, 1);
    addTaskCount(tally, 'y', 2, 2);
    addTaskCount(tally, 'x', 1, 1);
    expect(tally).toEqual({ keys: ['x', 'y'], sizes: [5, 2], passes: [2, 2] });
    const rows = [{ scenario_id: 'q', reward: 1 }, { task_id: 'r', reward: 0 }, { scenario_id: 'q', reward: 0.5 }, { scenario_id: 'q', reward: 0 }, 'not a row'];
    expect(tallyRows(rows)).toEqual({ keys: ['q', 'r'], sizes: [2, 1], passes: [1, 0] });
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
