import { describe, expect, it } from 'vitest';
import { sweepLabels, sweepReport, type SweepVariantInput } from '../../../shared/platform';
import { canonicalJson } from '../../../shared/platform/canonical-json';
import { StatsValueError } from '../../../shared/stats/errors';

/** `asks` tasks x k rollouts; `pass(task, rollout)` gives the reward (null = ungraded). */
function arm(asks: number, k: number, pass: (t: number, r: number) => number | null, marker?: (t: number) => number) {
  const rows: Array<Record<string, unknown>> = [];
  for (let t = 0; t < asks; t++) {
    for (let r = 0; r < k; r++) {
      rows.push({ scenario_id: `s${t}`, prompt: `ask ${t}`, rollout_index: r, reward: pass(t, r), ...(marker ? { markers: { polite: marker(t) } } : {}) });
    }
  }
  return rows;
}
const variant = (label: string, rows: unknown[]): SweepVariantInput => ({ harness: { label, instructions: label, tools: ['t'], model: 'm' }, rows });

describe('sweep labels (platform-api §6, §4.2)', () => {
  it('fingerprints the canonical JSON byte for byte (non-ASCII escaped, tools sorted, disclosure included)', () => {
    // Reference digests from Python: json.dumps({...}, sort_keys=True), sha256, first 12 hex.
    const out = sweepLabels([{ instructions: 'Ünïcode 😀 tab\t quote" back\\ del\x7f', tools: ['b', 'a', 'Z'] }]);
    expect(out.fingerprints).toEqual(['a49417adf0df']);
    expect(out.labels).toEqual(['h-a49417adf0df']);
    expect(canonicalJson({ b: [1, 2.5, true, null], a: 'x' })).toBe('{"a": "x", "b": [1, 2.5, true, null]}');
    const withDisclosure = sweepLabels([{ model: 'm', tools: [], disclosure: { b: [1, 2.5, true, null], a: 'x' } } as never]);
    expect(withDisclosure.fingerprints).toEqual(['1f0899e174ae']);
    expect(withDisclosure.wire[0]).not.toHaveProperty('disclosure');
  });

  it('reduces tool objects to names and the prompt to the label before "@"', () => {
    const out = sweepLabels([{ label: 'careful@haiku', tools: [{ type: 'function', function: { name: 'lookup' } }, { name: 'refund' }, {}] }]);
    expect(out.wire[0]).toMatchObject({ label: 'careful@haiku', tools: ['lookup', 'refund', 'dict'] });
    expect(out.prompts).toEqual(['careful']);
  });

  it('refuses a label over 40 characters, a repeated label and a bad behaviour name', () => {
    expect(() => sweepLabels([{ label: 'x'.repeat(41) }])).toThrow(/41 characters/);
    expect(sweepLabels([{ label: 'x'.repeat(40) }]).labels[0]).toHaveLength(40);
    expect(() => sweepLabels([{ label: 'a@m' }, { label: 'a@m' }])).toThrow(/two variants are labelled "a@m"/);
    expect(() => sweepLabels([{ label: 'a' }], { behavior: 'refund policy' })).toThrow(StatsValueError);
  });
});

describe('sweep report (platform-api §6)', () => {
  const strong = arm(60, 4, (t, r) => ((t + r) % 10 < 9 ? 1 : 0));
  const weak = arm(60, 4, (t, r) => ((t + r) % 2 === 0 ? 1 : 0));

  it('refuses an arm whose graded rows per ask differ, naming it with both counts, before scoring anything', () => {
    const dropped = weak.map((row, i) => (i === 5 ? { ...row, reward: null } : row));
    expect(() => sweepReport([variant('a', strong), variant('b', dropped)], { k: 4, noise_runs: 1 })).toThrow(/b has 239 graded rows on 60 asks, a has 240 on 60; 1 ask\(s\) differ, first "s1" \(3 vs 4\)/);
  });

  it('holds the noise re-runs to the same denominators and needs noise_runs - 1 of them', () => {
    expect(() => sweepReport([variant('a', strong)], { k: 4, noise_runs: 3, noise_rows: [strong] })).toThrow(/pass 2 re-run/);
    expect(() => sweepReport([variant('a', strong)], { k: 4, noise_runs: 2, noise_rows: [strong.slice(1)] })).toThrow(/a re-run 1 has 239/);
  });

  it('ranks by pass@1, names the winner that clears interval and floor, and scores markers on 3+ tasks', () => {
    const a = arm(60, 4, (t, r) => ((t + r) % 10 < 9 ? 1 : 0), (t) => t % 2);
    const r = sweepReport([variant('weak', weak), variant('strong', a)], { k: 4, noise_runs: 2, noise_rows: [weak] });
    expect(r.variants.map((v) => v.label)).toEqual(['strong', 'weak']);
    expect(r.best).toBe('strong');
    expect(r.noise_floor).toBe(0); // the re-run is identical to the first scoring
    expect(r.run_std).toBe(0);
    expect(r.variants[0].scores.policy.slice(0, 1)).toEqual([90]);
    expect(r.variants[0].scores.polite).toEqual([50, expect.any(Number), 60]);
    expect(r.variants[0].graded_rows).toBe(240);
    expect(r.unproven).toBe(false);
    expect(r.test_version).toMatch(/^t-[0-9a-f]{8}$/);
  });

  it('no winner when the leader does not clear the noise floor', () => {
    const near = arm(60, 4, (t, r) => ((t + r) % 10 < 8 ? 1 : 0));
    const again = arm(60, 4, (t, r) => ((t + r) % 10 < 7 ? 1 : 0));
    const r = sweepReport([variant('a', strong), variant('b', near)], { k: 4, noise_runs: 2, noise_rows: [again] });
    expect(r.noise_floor).toBeGreaterThan(10); // t(df=1) = 12.706 x a 0.14 spread
    expect(r.best).toBeNull();
    expect(r.text).toContain('no winner');
  });

  it('under 50 asks reads unproven, and noise_runs 1 has no floor', () => {
    const small = arm(20, 4, (t) => (t % 4 ? 1 : 0));
    const r = sweepReport([variant('only', small)], { k: 4, noise_runs: 1, test_version: 'frozen-1' });
    expect(r).toMatchObject({ n_asks: 20, unproven: true, noise_floor: null, run_std: null, noise_runs: null, test_version: 'frozen-1', best: 'only' });
    expect(r.text).toContain('20 asks is under 50');
  });

  it('refuses an empty sweep and a marker name the platform would refuse', () => {
    expect(() => sweepReport([], {})).toThrow(/variants is empty/);
    const badMarker = arm(5, 2, () => 1).map((row) => ({ ...row, markers: { 'bad name': 1 } }));
    expect(() => sweepReport([variant('a', badMarker)], { k: 2, noise_runs: 1 })).toThrow(/judge marker name "bad name"/);
  });
});
