// Statistics refuse options out of range inside the shared functions (StatsValueError, SDK-like messages), so the
// CLI, the API and the app refuse them alike.
import { describe, expect, it } from 'vitest';
import { curriculum } from '../../shared/stats/curriculum';
import { StatsValueError } from '../../shared/stats/errors';
import { judgeTrust } from '../../shared/stats/judge-trust';
import { passAt } from '../../shared/stats/pass-at';
import { detectableEffect, holdoutSize } from '../../shared/stats/sizing';
import { noiseBand } from '../../shared/stats/variance';

const refused = (run: () => unknown, message: RegExp) => {
  expect(run).toThrow(StatsValueError);
  expect(run).toThrow(message);
};

describe('statistics options out of range', () => {
  it('holdout_size and detectable_effect: base a rate, k at least 1, power and alpha in (0, 1)', () => {
    refused(() => holdoutSize(0.05, { base: 1.5 }), /^holdout_size: base must be a rate between 0 and 1 \(got 1\.5\); pass e\.g\. base=0\.6$/);
    refused(() => holdoutSize(0.05, { base: -0.1 }), /base must be a rate/);
    refused(() => holdoutSize(0.05, { k: 0 }), /holdout_size: k must be a number of at least 1 \(got 0\)/);
    refused(() => holdoutSize(0.05, { ceiling_pass_rate: 2 }), /ceiling_pass_rate/);
    refused(() => holdoutSize(1.2), /effect must be between 0 and 1/);
    expect(holdoutSize(0.05, { base: 0, k: 1 }).n_tasks).toBeGreaterThan(0); // the edges stay allowed (an SDK case uses base 0)
    refused(() => detectableEffect(200, { base: 1.5 }), /detectable_effect: base must be a rate/);
    refused(() => detectableEffect(200, { k: 0.5 }), /detectable_effect: k must be a number of at least 1/);
    refused(() => detectableEffect(200, { power: 1 }), /detectable_effect: power must be between 0 and 1, exclusive/);
    refused(() => detectableEffect(200, { alpha: 0 }), /alpha must be between 0 and 1/);
    expect(detectableEffect(200)).toBeGreaterThan(0);
  });

  it('pass_at: k at least 1 even with nothing to score', () => {
    refused(() => passAt([], { k: 0 }), /pass_at: k must be at least 1/);
    refused(() => passAt([{ scenario_id: 'a', reward: 1 }], { k: -2 }), /k must be at least 1/);
  });

  it('curriculum: band low < high within [0, 1], thresholds rates, tiers and min_rollouts at least 1', () => {
    const rows = [{ scenario_id: 'a', reward: 1 }, { scenario_id: 'a', reward: 0 }];
    refused(() => curriculum(rows, { band: [0.8, 0.2] }), /curriculum: band must be \[low, high\] with 0 <= low < high <= 1 \(got \[0\.8,0\.2\]\)/);
    refused(() => curriculum(rows, { band: [0.2, 1.5] }), /band must be/);
    refused(() => curriculum(rows, { solved: 1.2 }), /curriculum: solved must be a rate/);
    refused(() => curriculum(rows, { tiers: 0 }), /tiers must be a whole number of at least 1/);
    refused(() => curriculum(rows, { min_rollouts: 0 }), /min_rollouts/);
    expect(curriculum(rows).n_tasks).toBe(1);
  });

  it('noise_band and judge_trust: levels in (0, 1), counts at least 1, shares in [0, 1]', async () => {
    refused(() => noiseBand(0.02, { level: 1.5 }), /noise_band: level must be between 0 and 1/);
    refused(() => noiseBand(-1), /run_std must be a number of at least 0/);
    refused(() => noiseBand(0.02, { df: 0 }), /df must be a number of at least 1/);
    await expect(judgeTrust([], { sample: 0 })).rejects.toThrow(/judge_trust: sample must be a whole number of at least 1/);
    await expect(judgeTrust([], { min_agreement: 1.1 })).rejects.toThrow(/min_agreement must be a rate/);
    await expect(judgeTrust([], { min_kappa: 3 })).rejects.toThrow(/min_kappa must lie between -1 and 1/);
  });
});
