// `while-desk stats` flags become the SDK's keyword arguments; reports print in plain words.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../main/cli/command';
import { flagsToParams, statsSubcommand } from '../../main/cli/stats-flags';
import { printStats } from '../../main/cli/stats-print';
import { headlineWord } from '../../main/cli/stats-print-delta';

const sub = (name: string) => statsSubcommand(name)!;

describe('stats flags', () => {
  it('maps kebab-case flags to snake_case keyword arguments with their types', () => {
    expect(flagsToParams(sub('pass-at'), { k: '4', 'min-k': '2', 'unanimous-short': true })).toEqual({ k: 4, min_k: 2, unanimous_short: true });
    expect(flagsToParams(sub('pass-at'), { k: 'none', 'unanimous-short': false })).toEqual({ k: null });
    expect(flagsToParams(sub('curriculum'), { band: '0.25, 0.75', tiers: '2', solved: '0.9' })).toEqual({ band: [0.25, 0.75], tiers: 2, solved: 0.9 });
    expect(flagsToParams(sub('delta'), { 'must-not-regress': 'policy_cited,hedging', by: 'auto', 'run-std': '0.02', target: 'pass_at_1' })).toEqual({
      must_not_regress: ['policy_cited', 'hedging'], by: null, run_std: 0.02, target: 'pass_at_1',
    });
    expect(flagsToParams(sub('delta'), { by: 'none', 'run-std': 'pass_at_1=0.03,marker:x=none' })).toEqual({ by: false, run_std: { pass_at_1: 0.03, 'marker:x': null } });
    expect(flagsToParams(sub('judge-trust'), { probes: 'filler,refusal', sample: '10' })).toEqual({ probes: ['filler', 'refusal'], sample: 10 });
    expect(flagsToParams(sub('judge-trust'), { probes: 'none' })).toEqual({ probes: null });
    expect(flagsToParams(sub('decontaminate'), { against: ['a.jsonl', 'b.jsonl'], fields: 'prompt,answer' })).toEqual({ against: ['a.jsonl', 'b.jsonl'], fields: ['prompt', 'answer'] });
  });

  it('refuses values that are not what the flag takes', () => {
    expect(() => flagsToParams(sub('pass-at'), { k: '2.5' })).toThrow(UsageError);
    expect(() => flagsToParams(sub('curriculum'), { band: '0.2' })).toThrow(/two numbers/);
    expect(() => flagsToParams(sub('compare'), { level: 'high' })).toThrow(/--level must be a number/);
  });
});

describe('readable reports', () => {
  it('prints pass@k numbers with intervals and every note', () => {
    const text = printStats('pass_at', {
      report: {
        k: 4, pass_at_1: 0.5, pass_pow_k: 0.25, pass_at_k: 0.75, headroom: 0.25, n_groups: 30, n_groups_at_k: 30, n_groups_imputed: 0, n_rows: 120,
        note: 'every row scored 0 (120 of 120); check the judge', ci95: [0.4, 0.6], pass_pow_k_ci95: [0.1, 0.4], pass_at_k_ci95: null,
        config: { n_tasks: 30, k: 4, temperature: 0.7, mixed: [] },
      },
    });
    expect(text).toMatch(/30 tasks, 120 graded rows, k = 4/);
    expect(text).toMatch(/pass@1\s+0\.500\s+95% interval \[0\.400, 0\.600\]/);
    expect(text).toMatch(/pass@4\s+0\.750\s+\(no interval\)/);
    expect(text).toMatch(/- every row scored 0/);
    expect(text).toMatch(/- check the judge/);
  });

  it('words the delta headline as the SDK prints it', () => {
    expect(headlineWord({ ok: false, not_comparable: ['prompt_hash'] })).toBe('FAIL: NOT COMPARABLE (prompt_hash)');
    expect(headlineWord({ ok: true, not_comparable: [], target_verdict: 'moved' })).toBe('PASS');
    expect(headlineWord({ ok: true, not_comparable: [], target_verdict: 'moved_unreplicated' })).toMatch(/^INCONCLUSIVE/);
    expect(headlineWord({ ok: false, not_comparable: [], target_verdict: 'moved' })).toBe('FAIL');
  });
});
