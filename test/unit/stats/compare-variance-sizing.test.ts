import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../../shared/stats/compare-runs';
import { evalVariance, noiseBand, tQuantile } from '../../../shared/stats/variance';
import { detectableEffect, holdoutSize } from '../../../shared/stats/sizing';
import { StatsValueError } from '../../../shared/stats/errors';

const side = (tasks: string[], rate: (t: string, i: number) => number, extra: Record<string, unknown> = {}) =>
  tasks.flatMap((t, ti) => [0, 1, 2, 3].map((i) => ({ task_id: t, reward: rate(t, ti * 4 + i), ...extra })));
const tasks = (n: number, prefix = 't') => Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(2, '0')}`);

describe('compare_runs (§7)', () => {
  it('pairs shared tasks: b_better with the smallest p-value on a clear gain', () => {
    const a = side(tasks(20), (_, i) => (i % 4 === 0 ? 1 : 0));
    const b = side(tasks(20), (_, i) => (i % 4 === 3 ? 0 : 1));
    const r = compareRuns(a, b);
    expect(r.paired).toBe(true);
    expect(r.delta).toBeCloseTo(0.5, 12);
    expect(r.verdict).toBe('b_better');
    expect(r.p_value).toBe(1 / 2001);
    expect(r.note).toBe('');
  });

  it('falls back to unpaired means under min_paired and notes dropped tasks when paired', () => {
    const a = side(tasks(6, 'a'), () => 0);
    const b = side(tasks(6, 'b'), () => 1);
    const r = compareRuns(a, b);
    expect(r.paired).toBe(false);
    expect(r.p_value).toBeNull();
    expect(r.n_used).toBe(6);
    expect(r.ci95).toEqual([1, 1]);
    const partial = compareRuns(side(tasks(8), () => 1), side(tasks(6), () => 1));
    expect(partial.n_only_a).toBe(2);
    expect(partial.note).toMatch(/2 tasks only in a|dropped/);
    expect(partial.verdict).toBe('no_difference_detected');
    expect(() => compareRuns([], [], { metric: 'words' })).toThrow(StatsValueError);
    expect(compareRuns([], []).verdict).toBe('insufficient_data');
  });
});

describe('eval_variance and noise_band (§9)', () => {
  it('three runs: run_std, t(df=2) band and per-marker floors', () => {
    const runs = [0.5, 0.6, 0.55].map((p) => side(tasks(10), (_, i) => ((i * 7919) % 100 < p * 100 ? 1 : 0), { markers: { m: 1 } }));
    const r = evalVariance(runs);
    expect(r.n_runs).toBe(3);
    expect(r.noise_band_df).toBe(2);
    expect(Object.keys(r.run_std_by_metric)).toEqual(['pass_at_1', 'marker:m']);
    expect(r.run_std_by_metric['marker:m']).toBe(0);
    expect(r.notes).toEqual([]);
  });

  it('splits one row list by lineage.eval_run and notes unkeyed rows', () => {
    const rows = [
      ...side(tasks(4), () => 1, { lineage: { eval_run: 1 } }),
      ...side(tasks(4), () => 0, { lineage: { eval_run: 2 } }),
      { task_id: 'x', reward: 1 },
    ];
    const r = evalVariance([rows]);
    expect(Object.keys(r.means)).toEqual(['1', '2']);
    expect(r.notes).toHaveLength(2); // unkeyed, and fewer than 3 runs
    expect(r.stability).toBe('high_variance');
    expect(() => evalVariance([])).toThrow(StatsValueError);
    expect(() => evalVariance([{} as unknown])).toThrow(/list of rows/);
  });

  it('noise_band uses 1.96 at 0.95, the t table, Cornish-Fisher past 30 and bisection elsewhere', () => {
    expect(noiseBand(0.03)).toBe(1.96 * 0.03 * Math.SQRT2);
    expect(noiseBand(0.03, { df: 2 })).toBe(4.303 * 0.03 * Math.SQRT2);
    expect(noiseBand(0.05, { df: 3, level: 0.9 })).toBeCloseTo(0.16640792433585194, 9);
    expect(noiseBand(0.05, { level: 0.9 })).toBeCloseTo(0.11630871536766733, 12);
    expect(tQuantile(45)).toBeCloseTo(2.0141, 3);
    expect(() => noiseBand(0.1, { n_a: 0 })).toThrow(StatsValueError);
  });
});

describe('holdout_size and detectable_effect (§10)', () => {
  it('the model path reproduces the documented example', () => {
    const r = holdoutSize(0.05, { base: 0.6, k: 4 });
    expect([r.n_tasks, r.task_std, r.half_width, r.n_tasks_concentrated, r.sd_source]).toEqual([367, 0.3419, 0.035, 409, 'model']);
  });

  it('measures the paired sd from before/after rows and flags a ceiling', () => {
    const before = side(tasks(10), (_, i) => (i % 2 === 0 ? 1 : 0));
    const after = side(tasks(10), (t, i) => (t < 't05' ? 1 : i % 2 === 0 ? 1 : 0));
    const r = holdoutSize(0.1, { before, after });
    expect(r.sd_source).toBe('rows');
    expect(r.n_paired).toBe(10);
    expect(r.k).toBe(4);
    const full = side(tasks(10), () => 1);
    const sat = holdoutSize(0.05, { before: full });
    expect(sat.saturated).toBe(true);
    expect(sat.warnings).toHaveLength(1);
    expect(sat.n_tasks).toBe(holdoutSize(0.05, { base: 0.6, k: 4 }).n_tasks);
    expect(() => holdoutSize(0.05, { after: full })).toThrow(StatsValueError);
    expect(() => holdoutSize(1.5)).toThrow(StatsValueError);
  });

  it('detectable_effect: fixed point, null under 2 tasks', () => {
    expect(detectableEffect(1)).toBeNull();
    expect(detectableEffect(2)).toBe(0.4852);
    expect(detectableEffect(140, { base: 0.6, k: 4 })).toBe(0.0801);
    expect(detectableEffect(100, { power: 0.9, alpha: 0.01 })).toBe(0.1277);
  });
});

describe('compare_runs on large inputs (fast resampling paths)', () => {
  it('the sign-flip p-value agrees in distribution with the draw-per-diff test', () => {
    const n = 3000; // n x 2000 draws is over the fast threshold
    const ts = tasks(n, 'big');
    const a = ts.map((t, i) => ({ task_id: t, reward: i % 3 === 0 ? 1 : 0 }));
    const b = ts.map((t, i) => ({ task_id: t, reward: (i * 7) % 5 < 2 ? 1 : 0 }));
    const r = compareRuns(a, b);
    // reference: the plain test, drawing one coin per diff
    const diffs = ts.map((_, i) => ((i * 7) % 5 < 2 ? 1 : 0) - (i % 3 === 0 ? 1 : 0));
    const delta = diffs.reduce((x, y) => x + y, 0) / n;
    let hits = 0;
    let seed = 99;
    const coin = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296) < 0.5;
    for (let k = 0; k < 2000; k++) {
      let s = 0;
      for (const d of diffs) s += coin() ? d : -d;
      if (Math.abs(s / n) >= Math.abs(delta) - 1e-12) hits++;
    }
    const pRef = (hits + 1) / 2001;
    expect(Math.abs((r.p_value as number) - pRef)).toBeLessThan(0.06);
    expect(r.ci95?.[0]).toBeLessThan(delta);
    expect(r.ci95?.[1]).toBeGreaterThan(delta);
  });

  it('the unpaired interval for large disjoint sides brackets the difference of means', () => {
    const a = tasks(2500, 'x').map((t, i) => ({ task_id: t, reward: i % 2 }));
    const b = tasks(2500, 'y').map((t, i) => ({ task_id: t, reward: i % 4 === 0 ? 0 : 1 }));
    const r = compareRuns(a, b);
    expect(r.paired).toBe(false);
    expect(r.delta).toBeCloseTo(0.25, 12);
    expect(r.ci95?.[0]).toBeGreaterThan(0.2);
    expect(r.ci95?.[1]).toBeLessThan(0.3);
    expect(r.verdict).toBe('b_better');
  });
});
