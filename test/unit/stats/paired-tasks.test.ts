import { describe, expect, it } from 'vitest';
import { fromTaskColumns, pairedTaskTable, taskRowAt, taskStatusAt, toTaskColumns } from '../../../shared/stats/paired-tasks';
import { passAt } from '../../../shared/stats/pass-at';

const rows = (task: string, rewards: number[]) => rewards.map((reward, i) => ({ scenario_id: task, rollout_index: i, reward }));

describe('pairedTaskTable', () => {
  it('pairs tasks, marks each as improved, regressed or same, and sorts regressions first', () => {
    const table = pairedTaskTable({ a: 0.5, b: 1, c: 0.25, d: 1 }, { a: 0.75, b: 0.25, c: 0.25, e: 0 });
    expect(table.tasks.map((t) => [t.task, t.status])).toEqual([
      ['b', 'regressed'],
      ['c', 'same'],
      ['a', 'improved'],
      ['d', 'only_baseline'],
      ['e', 'only_candidate'],
    ]);
    expect(table.tasks[0].delta).toBeCloseTo(-0.75);
    expect(table).toMatchObject({ n_paired: 3, n_improved: 1, n_regressed: 1, n_same: 1, n_only_baseline: 1, n_only_candidate: 1 });
  });

  it("reads each task's rate from pass_at's own per-task rates", () => {
    const before = passAt([...rows('t1', [1, 0, 0, 0]), ...rows('t2', [1, 1, 1, 1])], { k: 4 });
    const after = passAt([...rows('t1', [1, 1, 0, 0]), ...rows('t2', [1, 1, 1, 0])], { k: 4 });
    const table = pairedTaskTable(before.per_task, after.per_task);
    expect(table.tasks.map((t) => [t.task, t.baseline, t.candidate])).toEqual([
      ['t2', 1, 0.75],
      ['t1', 0.25, 0.5],
    ]);
  });

  it('goes as columns and comes back as the same rows: order, rates, delta and status', () => {
    const table = pairedTaskTable({ a: 0.5, b: 1, c: 0.25, d: 1, f: 0.1 + 0.2 }, { a: 0.75, b: 0.25, c: 0.25, e: 0, f: 0.3 });
    const columns = toTaskColumns(table);
    expect(columns.task).toEqual(['b', 'f', 'c', 'a', 'd', 'e']); // f moved by float noise only: 'same', sorted by its delta
    expect(columns).not.toHaveProperty('tasks');
    expect(fromTaskColumns(JSON.parse(JSON.stringify(columns)))).toEqual(table);
    // One row or one status at a time, as the compare screen reads them: the same as the whole table's.
    const sent = JSON.parse(JSON.stringify(columns));
    table.tasks.forEach((row, i) => {
      expect(taskRowAt(sent, i)).toEqual(row);
      expect(taskStatusAt(sent, i)).toBe(row.status);
    });
  });
});
