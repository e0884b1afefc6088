// taskSums/taskMeans share their result within one synchronous turn (delta_report reads the same sets many
// times); the next turn must read the rows afresh, so a row changed between two jobs is never read stale.
import { describe, expect, it } from 'vitest';
import { taskMeans, taskSums } from '../../../shared/stats/task-means';

const rows = () => [
  { scenario_id: 'a', reward: 1 },
  { scenario_id: 'a', reward: 0 },
  { scenario_id: 'b', reward: 1 },
];

describe('task means within a turn', () => {
  it('the same rows and metric give the same map within a turn, and other metrics or rows their own', () => {
    const set = rows();
    expect(taskSums(set, 'pass_at_1')).toBe(taskSums(set, 'pass_at_1'));
    expect(taskMeans(set, 'pass_at_1')).toBe(taskMeans(set, 'pass_at_1'));
    expect([...taskMeans(set, 'pass_at_1')]).toEqual([['a', 0.5], ['b', 1]]);
    expect(taskMeans(set, 'marker:x').size).toBe(0);
    expect(taskSums(rows(), 'pass_at_1')).not.toBe(taskSums(set, 'pass_at_1'));
  });

  it('a row changed after the turn is read afresh', async () => {
    const set = rows();
    expect(taskMeans(set, 'pass_at_1').get('a')).toBe(0.5);
    await Promise.resolve();
    set[1].reward = 1;
    expect(taskMeans(set, 'pass_at_1').get('a')).toBe(1);
  });
});
