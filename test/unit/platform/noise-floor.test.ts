import { describe, expect, it } from 'vitest';
import { noiseFloor } from '../../../shared/platform';
import { StatsValueError } from '../../../shared/stats/errors';

/** 40 tasks x 2 rollouts whose run mean is passes / 80. */
const runWith = (passes: number) => Array.from({ length: 80 }, (_, i) => ({ scenario_id: `t${Math.floor(i / 2)}`, reward: i < passes ? 1 : 0 }));

describe('noise floor (platform-api §5.4)', () => {
  it('the spec vector: means 0.50, 0.525, 0.475 give run_std 0.025, t 4.303, floor 15.21 points', () => {
    const out = noiseFloor('refunds', [runWith(40), runWith(42), runWith(38)], { agent: 'bot' });
    expect(out.report).toMatchObject({ behavior: 'refunds', noise_floor: 15.21, run_std: 0.025, runs: 3, t: 4.3, means: { run_1: 0.5, run_2: 0.525, run_3: 0.475 } });
    expect(out.report.rule).toBe('t(df=2)=4.30 x run_std x sqrt(2) x 100 points');
    expect(out.put).toEqual({ path: '/agents/bot/behaviors/refunds', body: { noiseFloor: 15.21 } });
  });

  it('merges into the existing behaviour, re-serialised: a judge gains verified false, unknown keys drop', () => {
    const existing = [{ name: 'refunds', testVersion: 'v2', n: 160, judge: { agreement: 0.9, humanN: 60 }, noiseFloor: 1, extra: 'x' } as never];
    const out = noiseFloor('refunds', [runWith(40), runWith(42)], { agent: 'bot', behaviors: existing });
    expect(out.report.t).toBe(12.71);
    expect(out.report.notes.length).toBe(1); // two runs are a difference, not a distribution
    expect(out.put.body).toEqual({ testVersion: 'v2', n: 160, judge: { agreement: 0.9, humanN: 60, verified: false }, noiseFloor: out.report.noise_floor });
  });

  it('refuses fewer than two re-runs, and re-runs without 0/1 rewards, as ValueError', () => {
    expect(() => noiseFloor('refunds', [runWith(40)], { agent: 'bot' })).toThrow(StatsValueError);
    const partial = [{ scenario_id: 't', reward: 0.5 }];
    expect(() => noiseFloor('refunds', [runWith(40), partial], { agent: 'bot' })).toThrow(/1 of 2 re-runs/);
  });

  it('refuses a behaviour name the platform refuses', () => {
    expect(() => noiseFloor('refund policy', [runWith(40), runWith(41)], { agent: 'bot' })).toThrow(/Rename it/);
  });
});
