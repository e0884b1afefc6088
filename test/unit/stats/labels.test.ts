// attach_labels and judge_agreement against the SDK's conformance cases (stats-semantics §12), plus behaviour checks.
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { casesDir, runJudgeCase } from './judge-cases';
import { promptHashKey } from '../../../shared/stats/keys';
import { attachLabels } from '../../../shared/stats/labels';
import { goldKindOf, judgeAgreement, kappa } from '../../../shared/stats/agreement';
import { StatsValueError } from '../../../shared/stats/errors';

const cases = readdirSync(casesDir).filter((c) => c.startsWith('attach_labels_')).sort();

describe('attach_labels conformance cases', () => {
  it('finds the cases', () => expect(cases.length).toBeGreaterThan(0));
  for (const name of cases) {
    it(name, async () => {
      const { problems, expected, actual } = await runJudgeCase(name);
      expect(problems).toEqual([]);
      if ('error' in expected) expect((actual.error as { type: string }).type).toBe('ValueError');
    });
  }
});

describe('attachLabels behaviour', () => {
  const rows = (): Array<Record<string, unknown>> => [
    { scenario_id: 's1', rollout_index: 0, prompt: 'p', final_text: 'a' },
    { scenario_id: 's1', rollout_index: 1, prompt: 'p', final_text: 'b' },
    { rollout_id: 'r-9', prompt: 'q', final_text: 'c' },
  ];

  it('takes a {key: label} map, replaces on request and stamps the call time', () => {
    const data = rows();
    attachLabels(data, { 's1#0': 1, 'r-9': 0 }, { annotator: 'ana', now: 42 });
    expect(data[0].gold_reward).toBe(1);
    expect(data[2].gold_reward).toBe(0);
    expect(data[0].gold_labels).toEqual([{ label: 1, annotator: 'ana', kind: 'human', ts: 42 }]);
    const { report } = attachLabels(data, [{ key: 's1#0', label: 0, kind: 'verifier' }], { replace: true, now: 43 });
    expect(report.matched).toBe(1);
    expect(data[0].gold_reward).toBe(0);
    expect(data[0].gold_kind).toBe('program');
    expect(data[0].gold_labels).toHaveLength(1);
  });

  it('rejects a bad kind, a bare list, an ambiguous key (changing nothing) and an all-unmatched file', () => {
    expect(() => attachLabels(rows(), [], { kind: 'robot' })).toThrow(StatsValueError);
    expect(() => attachLabels(rows(), [0, 1])).toThrow(/not a label record/);
    const data = rows();
    expect(() => attachLabels(data, [{ key: 'r-9', label: 1 }, { key: 's1', label: 1 }])).toThrow(/'s1' names 2 rows/);
    expect(data[2]).not.toHaveProperty('gold_reward');
    expect(() => attachLabels(rows(), [{ key: 'nope', label: 1 }])).toThrow(/none of the 1 labels named a row/);
  });

  it('matches a prompt hash key, and a key another row carries as its rollout_id is as ambiguous as ever', () => {
    const hash = promptHashKey('q', 'c');
    const data = rows();
    expect(attachLabels(data, { [hash]: 1 }).report).toMatchObject({ matched: 1, unmatched: 0 });
    expect(data[2].gold_reward).toBe(1);
    // a label by prompt (no key) is the same hash
    expect(attachLabels(rows(), [{ prompt: 'p', final_text: 'b', label: 0 }]).rows[1]).toMatchObject({ gold_reward: 0 });
    const clash = [...rows(), { rollout_id: hash, prompt: 'x', final_text: 'y' }];
    expect(() => attachLabels(clash, { [hash]: 1 })).toThrow(/name more than one row/);
    // keys of no hash's form never meet a hash, and still match as before
    expect(attachLabels(rows(), { 's1#1': 1, 'r-9': 0, nope: 1 }).report).toMatchObject({ matched: 2, unmatched: 1 });
  });

  it('counts booleans and strings as invalid values', () => {
    const { report } = attachLabels(rows(), [{ key: 'r-9', label: true }, { key: 'r-9', label: '1' }, { key: 'r-9', label: 1.0 }]);
    expect(report.invalid).toBe(2);
    expect(report.matched).toBe(1);
  });
});

describe('judgeAgreement and gold kinds', () => {
  it('names one kind, the untrusted one beside a trusted one, or mixed', () => {
    expect(goldKindOf(['human', 'human'])).toBe('human');
    expect(goldKindOf(['human', 'model'])).toBe('model');
    expect(goldKindOf(['human', 'verifier'])).toBe('mixed');
    expect(goldKindOf([null])).toBe('unknown');
    expect(goldKindOf([])).toBeNull();
  });

  it('computes the confusion table, kappa and the leak warning', () => {
    const rows = [
      ...Array.from({ length: 8 }, () => ({ reward: 1, gold_reward: 1, gold_kind: 'human' })),
      ...Array.from({ length: 6 }, () => ({ reward: 0, gold_reward: 0, gold_kind: 'human' })),
      { reward: 1, gold_reward: 0, gold_kind: 'human' },
      { reward: 0, gold_reward: 1, gold_kind: 'human' },
      { reward: 0.5, gold_reward: 1 },
    ];
    const out = judgeAgreement(rows);
    expect(out.confusion).toEqual({ tp: 8, fp: 1, fn: 1, tn: 6 });
    expect(out.n_skipped).toBe(1);
    expect(out.agreement).toBe(0.875);
    expect(out.kappa).toBe(kappa(8, 1, 1, 6));
    expect(out.gold_kind).toBe('human');
    expect(out.ok).toBe(true);
    expect(out.warnings.some((w) => w.startsWith('judge passed 1 of 7'))).toBe(true);
  });

  it('rounds kappa ties to even like Python and treats model gold as untrusted', () => {
    expect(kappa(0, 0, 0, 0)).toBeNull();
    expect(kappa(5, 0, 0, 0)).toBe(1);
    const out = judgeAgreement([{ reward: 1, gold_reward: 1, gold_kind: 'model' }]);
    expect(out.ok).toBe(false);
    expect(judgeAgreement([{ reward: 1, gold_reward: 1, gold_kind: 'model' }], 'gold_reward', { allow_model_gold: true }).ok).toBe(true);
  });

  it('matches a second row list by row key as model gold', () => {
    const a = [{ rollout_id: 'x', reward: 1 }, { rollout_id: 'y', reward: 0 }, { rollout_id: 'z', reward: 1 }];
    const b = [{ rollout_id: 'x', reward: 1 }, { rollout_id: 'y', reward: 1 }];
    const out = judgeAgreement(a, b);
    expect(out.n).toBe(2);
    expect(out.n_unmatched).toBe(1);
    expect(out.gold_kind).toBe('model');
  });
});
