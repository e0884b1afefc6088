// judge_trust against the SDK's conformance cases (stats-semantics §13.1-13.4), plus behaviour checks.
import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { casesDir, loadJudge, readJsonl, runJudgeCase } from './judge-cases';
import { judgeTrust } from '../../../shared/stats/judge-trust';
import { lengthSensitivity } from '../../../shared/stats/length-sensitivity';
import { signTestP } from '../../../shared/stats/perturbation';
import { sha256FirstWord, taskHalf } from '../../../shared/stats/task-half';
import { sha256Hex } from '../../../shared/stats/hash';

const cases = readdirSync(casesDir).filter((c) => c.startsWith('judge_trust_')).sort();

describe('judge_trust conformance cases', () => {
  it('finds the cases', () => expect(cases.length).toBeGreaterThan(0));
  for (const name of cases) {
    it(name, async () => {
      const { problems } = await runJudgeCase(name);
      expect(problems).toEqual([]);
    });
  }
});

type Row = Record<string, unknown>;

describe('judgeTrust behaviour', () => {
  it('says the judge is unmeasured when nothing is labeled', async () => {
    const out = await judgeTrust([{ task_id: 'a', reward: 1 }, { task_id: 'b', reward: 0 }]);
    expect(out.ok).toBe(false);
    expect(out.n_labeled).toBe(0);
    expect(out.agreement.ci95).toBeNull();
    expect(out.warnings).toHaveLength(1);
    expect(out.warnings[0]).toMatch(/^judge trust is unmeasured/);
    expect(out.warnings[0]).toMatch(/probes="all"/);
  });

  it('counts fractional rewards against max_skipped_share and treats unknown gold as untrusted', async () => {
    const rows: Row[] = Array.from({ length: 20 }, (_, i) => ({ task_id: `t${i}`, reward: i < 3 ? 0.5 : i % 2, gold_reward: i % 2 }));
    const out = await judgeTrust(rows);
    expect(out.skipped).toMatchObject({ n_gold: 20, n_used: 17, fractional: 3, unscored: 0, share: 0.15, over_floor: true, examples: [0.5] });
    expect(out.gold_kind).toBe('unknown');
    expect(out.ok).toBe(false);
    expect(out.warnings.some((w) => w.startsWith('Judge agreement skipped 3 of 20'))).toBe(true);
  });

  it('asks for more labels when the point agreement clears the floor but the bound does not', async () => {
    const rows: Row[] = Array.from({ length: 40 }, (_, i) => ({
      task_id: `t${i}`, gold_reward: i % 2, gold_kind: 'human', reward: i < 4 ? 1 - (i % 2) : i % 2,
    }));
    const out = await judgeTrust(rows);
    expect(out.agreement.agreement).toBe(0.9);
    const line = out.warnings.find((w) => w.startsWith('Judge agreement with human labels is 0.90 on 40 labels'));
    expect(line).toMatch(/Label about 54 rows/);
    expect(out.ok).toBe(false);
  });

  it('runs the perturbation pass and the probes with a judge, and flags a length-paying judge', async () => {
    const file = path.join(casesDir, 'judge_probes_length_judge', 'rows.jsonl');
    const rows = readJsonl(file).map((r, i) => ({ ...r, gold_reward: (r.final_text as string).length > 300 ? 1 : 0, gold_kind: 'human', rollout_id: `r${i}` }));
    const judge = await loadJudge('len_over_400');
    const out = await judgeTrust(rows, { judge, probes: 'all' });
    expect(out.perturbation).toMatchObject({ n: 40, consistency_flip_rate: 0, filler_flips_down: 0, flagged_consistency: false });
    const p = out.perturbation as { filler_flips_up: number; flagged_length: boolean; filler_sign_p: number };
    expect(p.filler_flips_up).toBe(11);
    expect(p.filler_sign_p).toBeCloseTo(signTestP(11, 0), 15);
    expect(p.flagged_length).toBe(true);
    expect(out.exploitable_by).toEqual(['filler', 'prompt_echo']);
    expect(out.ok).toBe(false);
    expect(out.warnings.some((w) => w.includes('flip when neutral filler is appended'))).toBe(true);
  });

  it('warns when the rows were scored by another judge', async () => {
    const rows: Row[] = Array.from({ length: 10 }, (_, i) => ({ task_id: `t${i}`, reward: i % 2, gold_reward: i % 2, gold_kind: 'human', judge_name: 'other' }));
    const out = await judgeTrust(rows, { judge: function mine(row: Row) { return row.reward; } });
    expect(out.warnings.some((w) => w.startsWith('Judge under audit is mine, but the reward on 10 of 10 labeled rows was written by other (10)'))).toBe(true);
    expect(out.ok).toBe(false);
  });
});

describe('length sensitivity and the sign test', () => {
  it('splits at the upper median and runs the two-proportion test', () => {
    const rows: Row[] = Array.from({ length: 8 }, (_, i) => ({ final_text: 'x'.repeat(10 * (i + 1)), gold_reward: 1, reward: i >= 4 ? 1 : 0 }));
    const out = lengthSensitivity(rows);
    expect(out.gold_1).toMatchObject({ n: 8, median_chars: 50, judge_pass_short: 0, judge_pass_long: 1, gap_long_minus_short: 1 });
    expect(out.gold_0).toEqual({ n: 0, note: 'too few rows' });
    expect(out.flagged).toBe(true);
  });

  it('matches exact binomial tails', () => {
    expect(signTestP(0, 0)).toBe(1);
    expect(signTestP(5, 0)).toBeCloseTo(2 / 32, 15);
    expect(signTestP(3, 3)).toBe(1);
    expect(signTestP(2000, 1900)).toBeGreaterThan(0);
  });
});

describe('task halves', () => {
  it('agrees with a full SHA-256 on short, long and non-ASCII keys', () => {
    const keys = ['', 'jg_001', 'a'.repeat(55), 'b'.repeat(56), 'c'.repeat(64), 'x'.repeat(200), 'caf\u00e9 \u4e2d\u6587 \ud83d\ude00', '17'];
    for (const key of keys) {
      expect(sha256FirstWord(key)).toBe(parseInt(sha256Hex(key).slice(0, 8), 16));
      expect(taskHalf(key)).toBe(parseInt(sha256Hex(key).slice(0, 8), 16) % 2);
    }
  });
});
