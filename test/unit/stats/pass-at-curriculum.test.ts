import { describe, expect, it } from 'vitest';
import { passAt, passAtDict } from '../../../shared/stats/pass-at';
import { curriculum, retireSolved } from '../../../shared/stats/curriculum';
import { StatsValueError } from '../../../shared/stats/errors';

const rowsFor = (spec: Record<string, number[]>) =>
  Object.entries(spec).flatMap(([task, rewards]) => rewards.map((reward, i) => ({ scenario_id: task, rollout_index: i, reward, final_text: 'ok' })));

describe('pass_at (§5)', () => {
  it('computes the unbiased pass^k and pass@k per group', () => {
    const rows = rowsFor({ a: [1, 1, 1, 1], b: [1, 0, 0, 0], c: [0, 0, 0, 0], d: [1, 1, 0, 1] });
    const r = passAt(rows, { k: 2, min_k: 2 });
    expect(r.k).toBe(2);
    expect(r.pass_at_1).toBe((1 + 0.25 + 0 + 0.75) / 4);
    // pass^2: C(c,2)/C(4,2) -> 1, 0, 0, 3/6
    expect(r.pass_pow_k).toBe((1 + 0 + 0 + 0.5) / 4);
    // pass@2: 1 - C(4-c,2)/6 -> 1, 0.5, 0, 1
    expect(r.pass_at_k).toBe((1 + 0.5 + 0 + 1) / 4);
    expect(r.headroom).toBe((r.pass_at_k as number) - (r.pass_at_1 as number));
    expect(r.n_groups_at_k).toBe(4);
    expect(r.note).toBe('');
    expect(r.ci95).not.toBeNull();
    expect(r.per_task).toEqual({ a: 1, b: 0.25, c: 0, d: 0.75 });
    expect(Object.keys(passAtDict(r))).toEqual(['k', 'pass_at_1', 'pass_pow_k', 'pass_at_k', 'headroom', 'n_groups', 'n_groups_at_k', 'n_groups_imputed', 'n_rows', 'note', 'ci95', 'pass_pow_k_ci95', 'pass_at_k_ci95', 'config']);
  });

  it('builds per_task only when it is read, and the SDK dict never reads it', () => {
    const r = passAt(rowsFor({ a: [1, 1, 0, 0], b: [0, 0, 0, 1] }), { k: 4 });
    const dict = passAtDict(r);
    expect('per_task' in dict).toBe(false);
    expect(Object.getOwnPropertyDescriptor(r, 'per_task')?.get).toBeTypeOf('function'); // not built by passAtDict
    expect(Object.keys(r)).toContain('per_task');
    expect(JSON.parse(JSON.stringify(r)).per_task).toEqual({ a: 0.5, b: 0.25 });
    expect(Object.getOwnPropertyDescriptor(r, 'per_task')?.value).toEqual({ a: 0.5, b: 0.25 }); // built once, then kept
  });

  it('reads 200,000 tasks (Math.min over one argument per task overflowed the stack there)', () => {
    const rows: Array<Record<string, unknown>> = [];
    for (let t = 0; t < 200_000; t++) for (let r = 0; r < 2; r++) rows.push({ scenario_id: `t${t}`, reward: (t + r) % 2 });
    const r = passAt(rows, { intervals: false });
    expect(r.k).toBe(2);
    expect(r.pass_at_1).toBe(0.5);
    expect(r.n_groups).toBe(200_000);
  });

  it('k under min_k gives null k-way numbers and a note; uneven groups name the largest size', () => {
    const r = passAt(rowsFor({ a: [1, 0], b: [1, 1, 0, 1], c: [0, 0, 0, 1] }));
    expect(r.k).toBe(2);
    expect(r.pass_pow_k).toBeNull();
    expect(r.note).toMatch(/uneven \(2 to 4/);
    expect(r.note).toMatch(/k=4/);
  });

  it('unanimous_short imputes short unanimous groups', () => {
    const r = passAt(rowsFor({ a: [1, 1, 1, 1], b: [0, 0], c: [1, 0, 1, 1], d: [1, 0] }), { k: 4, unanimous_short: true });
    expect(r.n_groups_at_k).toBe(3);
    expect(r.n_groups_imputed).toBe(1);
    expect(r.pass_pow_k).toBe((1 + 0 + 0) / 3);
  });

  it('two tasks: no interval and the note says why; nothing graded: the judge-failure note', () => {
    const two = passAt(rowsFor({ a: [1, 0, 1, 1], b: [0, 0, 1, 0] }));
    expect(two.ci95).toBeNull();
    expect(two.note).toMatch(/no interval on pass@1: 2 tasks/);
    const failed = passAt([{ scenario_id: 'a', reward: null, judge_status: 'error', reason: ' timeout ' }, { scenario_id: 'b', reward: null, judge_status: 'timeout' }]);
    expect(failed.n_groups).toBe(0);
    expect(failed.k).toBe(1);
    expect(failed.note).toMatch(/failed on all 2 rows \(error\/timeout\): timeout/);
    expect(() => passAt(rowsFor({ a: [1] }), { k: 0 })).toThrow(StatsValueError);
  });

  it('leads the note with the degenerate reward and reads the run config', () => {
    const rows = rowsFor({ a: [0, 0, 0, 0], b: [0, 0, 0, 0], c: [0, 0, 0, 0] }).map((r, i) => ({
      ...r, sampling: { temperature: i < 4 ? 0.2 : 0.8, max_tokens: 512 }, policy_version: 'm@abc', finish_reason: i === 0 ? 'length' : 'stop',
    }));
    const r = passAt(rows);
    expect(r.note.startsWith('every row scored 0 (12 of 12)')).toBe(true);
    expect(r.config.mixed).toEqual(['temperature']);
    expect(r.config.max_tokens).toBe(512);
    expect(r.config.prompt_hash).toBe('abc');
    expect(r.config.truncated_share).toBe(0.0833);
    expect(r.config.graded_share).toBe(1);
  });
});

describe('curriculum (§6)', () => {
  const rows = [
    ...rowsFor({ easy: [1, 1, 1, 1], mid1: [1, 0, 1, 0], mid2: [1, 1, 1, 0], hard: [0, 0, 0, 0], edge: [1, 0, 0, 0, 0] }),
    { task_id: 'thin', prompt: 'one shot', reward: 1 },
  ];
  it('splits tasks by rounded pass rate with inclusive band edges', () => {
    const c = curriculum(rows);
    expect(c.n_tasks).toBe(6);
    expect(c.retired.map((t) => t.task_id)).toEqual(['easy']);
    expect(c.not_ready.map((t) => t.task_id)).toEqual(['hard']);
    expect(c.thin).toEqual([{ task_id: 'thin', prompt: 'one shot', n: 1, pass_rate: 1 }]);
    expect(c.schedule).toEqual(['mid2', 'mid1', 'edge']); // 0.75, 0.5, 0.2 (floor inclusive)
    expect(c.tiers.map((t) => t.map((x) => x.task_id))).toEqual([['mid2'], ['mid1'], ['edge']]);
    expect(c.n_in_band).toBe(3);
  });
  it('custom thresholds and retireSolved', () => {
    const c = curriculum(rows, { solved: 0.7, floor: 0.3, tiers: 1 });
    expect(c.retired.map((t) => t.task_id)).toEqual(['easy', 'mid2']);
    expect(c.not_ready.map((t) => t.task_id)).toEqual(['hard', 'edge']);
    expect(c.tiers).toHaveLength(1);
    const kept = retireSolved(rows) as Array<Record<string, unknown>>;
    expect(kept).toHaveLength(rows.length - 4);
    expect(kept.some((r) => r.scenario_id === 'easy')).toBe(false);
    expect(retireSolved(rows, { solved: 0.7 })).toHaveLength(rows.length - 8);
  });
});

describe('curriculum group order', () => {
  it('orders tasks by their first labeled row, while the prompt comes from the first row of any kind', () => {
    const c = curriculum([
      { task_id: 'A', prompt: 'first A', reward: null },
      { task_id: 'B', prompt: 'B', reward: 0 },
      { task_id: 'B', prompt: 'B', reward: 0 },
      { task_id: 'A', prompt: 'second A', reward: 0 },
      { task_id: 'A', prompt: 'second A', reward: 0 },
    ]);
    expect(c.not_ready.map((t) => [t.task_id, t.prompt])).toEqual([['B', 'B'], ['A', 'first A']]);
  });
});
