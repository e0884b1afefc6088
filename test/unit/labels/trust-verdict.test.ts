// "Label N more": the smallest sample whose Wilson lower bound clears the floor at the current agreement, as
// judge_trust's own floor warning computes it (0.90 on 40 -> about 54 rows in the judge_trust_with_probes case).
import { describe, expect, it } from 'vitest';
import { labelsToFloor, trustView } from '../../../shared/stats/trust-verdict';
import { wilsonInterval } from '../../../shared/stats/intervals';

describe('labels to the floor', () => {
  it('0.90 on 40 needs 14 more to reach 54 (the SDK says about 54)', () => {
    expect(labelsToFloor(0.9, 40, 0.8)).toBe(14);
    expect(wilsonInterval(Math.round(0.9 * 54), 54)?.[0]).toBeGreaterThanOrEqual(0.8);
    expect(wilsonInterval(Math.round(0.9 * 53), 53)?.[0]).toBeLessThan(0.8);
  });
  it('is 0 over the floor and null at or under it', () => {
    expect(labelsToFloor(0.95, 200, 0.8)).toBe(0);
    expect(labelsToFloor(0.8, 50, 0.8)).toBeNull();
    expect(labelsToFloor(0.7, 50, 0.8)).toBeNull();
    expect(labelsToFloor(null, 0, 0.8)).toBeNull();
  });
  it('words the verdict, naming the floor', () => {
    const report = (agreement: number, n: number, ci95: [number, number], kappa: number, ok = false) => ({ ok, gold_kind: 'human', floors: { min_agreement: 0.8, min_kappa: 0.6 }, skipped: { n_gold: n }, agreement: { n, agreement, ci95, kappa } });
    expect(trustView({ agreement: { n: 0 } }).word).toBe('not measured');
    expect(trustView(report(0.95, 300, [0.92, 0.97], 0.8, true))).toMatchObject({ word: 'trusted', more: 0 });
    expect(trustView(report(0.5, 100, [0.4, 0.6], 0.1)).line).toMatch(/Fails: .*80\.0% floor/);
    const unsure = trustView(report(0.9, 40, [0.7634, 0.9604], 0.7));
    expect(unsure).toMatchObject({ word: 'inconclusive', more: 14 });
    expect(unsure.line).toMatch(/label about 14 more/);
    expect(trustView({ ...report(0.9, 40, [0.76, 0.96], 0.7), gold_kind: 'model' }).word).toBe('not measured');
  });
});
