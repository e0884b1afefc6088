import { describe, expect, it } from 'vitest';
import { decontaminate, decontaminateAsync } from '../../../shared/stats/decontaminate';
import { deltaReport } from '../../../shared/stats/delta-report';
import { StatsValueError } from '../../../shared/stats/errors';

const evalRows = [
  { scenario_id: 'e1', prompt: 'My order arrived with a cracked blender jar and I would like a full refund please' },
  { scenario_id: 'e2', prompt: 'Cancel my plan', answer: 'The plan is cancelled effective today and you will not be charged again' },
];

describe('decontaminate (§11)', () => {
  it('applies same_task, exact, near-copy coverage, in that order', () => {
    const rows = [
      { scenario_id: 'e2', prompt: 'something else entirely' },
      { prompt: '  CANCEL   my plan ' },
      { prompt: 'Hello: my order arrived with a cracked blender jar and I would like a full refund please' },
      { prompt: 'my order arrived with a cracked blender jar and then some totally unrelated words follow here to dilute it a lot' },
      'not a row',
      { prompt: 'short one' },
    ];
    const { kept_indices, report } = decontaminate(rows, [evalRows]);
    expect(kept_indices).toEqual([3, 5]);
    expect(report.n).toBe(5);
    expect([report.n_same_task, report.n_exact, report.n_near]).toEqual([1, 1, 1]);
    expect(report.n_eval_texts).toBe(3);
    expect(report.examples[2]).toEqual({ index: 2, field: 'prompt', match: 'my order arrived with a cracked blender jar', coverage: 0.941 });
    expect(report.by_field).toEqual({ task: 1, prompt: 2 });
    expect(report.rules_skipped).toEqual({});
    expect(report.notes).toEqual([]);
  });

  it('says when the same_task rule could not run, and runs the semantic rule with an embedder', async () => {
    const noIds = decontaminate([{ prompt: 'x y z' }], [{ prompt: 'a b c' }]);
    expect(noIds.report.rules_skipped.same_task).toMatch(/0 of 1 evaluation rows/);
    expect(noIds.report.notes).toHaveLength(1);
    // a toy embedder: bag of the words "refund" and "cancel"
    const embedder = (texts: string[]) => texts.map((t) => [/refund/i.test(t) ? 1 : 0, /cancel/i.test(t) ? 1 : 0, 0.01]);
    const out = await decontaminateAsync([{ prompt: 'I want my money back, refund it' }, { prompt: 'weather today' }], [evalRows], { embedder });
    expect(out.kept_indices).toEqual([1]);
    expect(out.report.n_semantic).toBe(1);
    expect(out.report.similarity).toBe(0.85);
    expect(() => decontaminate([], [evalRows], { embedder })).toThrow(StatsValueError);
  });
});

const arm = (rate: (t: number, i: number) => number, extra: (t: number, i: number) => Record<string, unknown> = () => ({})) =>
  Array.from({ length: 30 }, (_, t) => [0, 1, 2, 3].map((i) => ({ scenario_id: `s${String(t).padStart(2, '0')}`, rollout_index: i, reward: rate(t, i), final_text: 'done', ...extra(t, i) }))).flat();

describe('delta_report (§8)', () => {
  const before = arm((t, i) => ((t + i) % 3 === 0 ? 1 : 0), (t) => ({ category: t % 2 ? 'billing' : 'account', policy_version: 'm-base', markers: { hedging: t % 2 } }));
  const after = arm((t, i) => ((t + i) % 3 === 0 || i === 1 ? 1 : 0), (t) => ({ category: t % 2 ? 'billing' : 'account', policy_version: 'm-sft', markers: { hedging: 0 } }));

  it('one eval run a side: a real gain reads moved_unreplicated, hedging (lower is better) improved', () => {
    const r = deltaReport(before, after, { target: 'pass_at_1' });
    expect(r.target_verdict).toBe('moved_unreplicated');
    expect(r.improved).toEqual(['pass_at_1', 'marker:hedging']);
    expect(r.lower_is_better).toEqual(['marker:hedging']);
    expect(r.noise_rule).toBe('1.96 x run_std x sqrt(1/1 + 1/1)');
    expect(r.by).toBe('category');
    expect(r.by_source).toBe('auto');
    expect(Object.keys(r.groups ?? {})).toEqual(['account', 'billing']);
    expect(r.slice_min_tasks).toBe(6);
    expect(r.ok).toBe(true);
  });

  it('a given run_std with 3 runs uses t(df=2) and can put the delta within noise', () => {
    const r = deltaReport(before, after, { target: 'pass_at_1', run_std: 0.2, run_std_runs: 3, by: false });
    expect(r.noise_rule).toBe('t(df=2)=4.30 x run_std x sqrt(1/1 + 1/1)');
    expect(r.noise_band).toBeCloseTo(4.303 * 0.2 * Math.SQRT2, 12);
    expect(r.target_verdict).toBe('within_eval_noise');
    expect(r.within_noise).toContain('pass_at_1');
    expect(r.groups).toBeNull();
  });

  it('guards regressions, flags the target not measured, and validates arguments', () => {
    const r = deltaReport(after, before, { target: 'marker:missing', must_not_regress: ['pass_at_1'] });
    expect(r.target_verdict).toBe('target_not_measured');
    expect(r.regressions).toEqual(['pass_at_1']);
    expect(r.ok).toBe(false);
    expect(() => deltaReport(before, after, { lower_is_better: ['nope'] })).toThrow(StatsValueError);
    expect(() => deltaReport(before, after, { run_std_runs: 3 })).toThrow(StatsValueError);
  });

  it('different user models make the arms not comparable', () => {
    const r = deltaReport(before.map((x) => ({ ...x, user_model: 'u1' })), after.map((x) => ({ ...x, user_model: 'u2' })), { by: false });
    expect(r.not_comparable).toEqual(['user_model']);
    expect(r.ok).toBe(false);
  });
});

describe('delta_report side checks', () => {
  const mk = (n: number, rate: (t: number, i: number) => number, markers: (t: number, i: number) => Record<string, number>, k = 4) =>
    Array.from({ length: n }, (_, t) => Array.from({ length: k }, (_, i) => ({ task_id: `t${t}`, reward: rate(t, i), markers: markers(t, i), policy_version: `p${k}` }))).flat();

  it('a proxy that rose while the target stayed flat is over-optimized and fails the gate', () => {
    const before = mk(30, (t, i) => (t + i) % 2, () => ({ reward_model: 0 }));
    const after = mk(30, (t, i) => (t + i) % 2, () => ({ reward_model: 1 }));
    const r = deltaReport(before, after, { target: 'pass_at_1', proxy: 'reward_model', by: false });
    expect(r.proxy).toBe('marker:reward_model');
    expect(r.proxy_verdict).toBe('moved');
    expect(r.over_optimized).toBe(true);
    expect(r.ok).toBe(false);
    expect(deltaReport(before, after, { target: 'pass_at_1', proxy: 'pass_at_1', by: false }).proxy_verdict).toBe('proxy_is_target');
  });

  it('warns on unequal k and flags a ceiling', () => {
    const before = mk(30, () => 1, () => ({}));
    const after = mk(30, () => 1, () => ({}), 2);
    const r = deltaReport(before, after, { by: false });
    expect(r.ceiling).toBe(true);
    expect(r.warnings.some((w) => /k=4 rollouts per task and after has k=2: 30 of 30 paired tasks/.test(w))).toBe(true);
    expect(r.config.before.k).toBe(4);
    expect(r.config.after.k).toBe(2);
  });
});
