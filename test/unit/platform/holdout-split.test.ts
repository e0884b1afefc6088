import { describe, expect, it } from 'vitest';
import { holdoutBucket, holdoutSplit } from '../../../shared/platform';
import { StatsValueError } from '../../../shared/stats/errors';

describe('holdout split (platform-api §3.3)', () => {
  it('buckets by the first 8 hex digits of sha256(task key) (reference values from Python)', () => {
    expect(holdoutBucket({})).toBeCloseTo(0.8894159949592818, 15);
    expect(holdoutBucket({ scenario_id: '', task_id: 'task-1' })).toBeCloseTo(0.48038692923271725, 15);
    expect(holdoutBucket({ scenario_id: 17 })).toBeCloseTo(0.27007031796268893, 15);
    expect(holdoutBucket({ prompt: 'Please refund' })).toBeCloseTo(0.4564510233366049, 15);
  });

  it('null or 0 means no split; the same task always lands on the same side', () => {
    const rows = [{ task_id: 'task-1' }, { scenario_id: 17 }, { task_id: 'task-1', prompt: 'other' }, { prompt: 'Please refund' }];
    expect(holdoutSplit(rows, null)).toEqual({ train: [0, 1, 2, 3], holdout: [] });
    expect(holdoutSplit(rows, 0)).toEqual({ train: [0, 1, 2, 3], holdout: [] });
    expect(holdoutSplit(rows, 0.3)).toEqual({ train: [0, 2, 3], holdout: [1] });
    expect(holdoutSplit(rows, 0.47)).toEqual({ train: [0, 2], holdout: [1, 3] });
    expect(holdoutSplit(rows, 1e-9)).toEqual({ train: [0, 1, 2, 3], holdout: [] });
  });

  it('refuses a fraction outside (0, 1) and one that leaves no train rows', () => {
    for (const bad of [1, -0.1, 1.5, Number.NaN]) expect(() => holdoutSplit([{ task_id: 'a' }], bad)).toThrow(StatsValueError);
    expect(() => holdoutSplit([{ scenario_id: 17 }], 0.5)).toThrow(/leaves no train rows/);
  });
});
