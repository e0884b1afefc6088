import { describe, expect, it } from 'vitest';
import { verdict, type BehaviorWire, type DashboardWire, type RunRow } from '../../../shared/platform';
import { StatsValueError } from '../../../shared/stats/errors';

const refunds: BehaviorWire = { name: 'refunds', testVersion: 'v2', n: 240, judge: { agreement: 0.86, humanN: 60, verified: true }, noiseFloor: 2.4 };

function dash(over: Partial<DashboardWire> = {}): DashboardWire {
  return {
    agent: { id: 'a', name: 'a', serving: 'v3' },
    behavior: refunds,
    behaviors: ['refunds'],
    versions: [{ v: 'v3', score: 78, ci: 2.7, run: 'r3' }, { v: 'v4', score: 83, ci: 2.7, run: 'r4' }],
    verdict: { serving: 'v3' },
    ...over,
  };
}

const run = (id: string, version: string, createdAt: string, evals: Array<[string, number, number?]>, extra: Partial<RunRow> = {}): RunRow => ({
  id, version, createdAt, evals: evals.map(([behavior, score, ci]) => ({ behavior, score, ci: ci ?? 2.7, n: 240 })), ...extra,
});

const runs = [run('r4', 'v4', '2026-09-20', [['refunds', 83]]), run('r3', 'v3', '2026-09-18', [['refunds', 78]])];

describe('verdict (platform-api §5.1)', () => {
  it('unproven when the behaviour rests on no measured judge and no floor (spec vector 2)', () => {
    const b = { name: 'refunds', n: 240 };
    const d = dash({
      behavior: b,
      behaviors: ['refunds', 'length'],
      verdict: { candidate: 'v4', serving: 'v3' },
      deltas: [{ name: 'refunds', delta: 5, target: true }, { name: 'length', delta: -4 }],
    });
    const v = verdict(d, [b], runs);
    expect(v.line).toBe('unproven: refunds: v4 beats v3 by 5 (interval excludes zero, no noise floor declared); 1 behavior lower (point estimates, no interval on that check); n=240 (judge agreement unmeasured)');
  });

  it('about the same when the interval includes zero (spec vector 3)', () => {
    const d = dash({ versions: [{ v: 'v3', score: 78, ci: 3.1 }, { v: 'v4', score: 80, ci: 2.7 }], behavior: { name: 'refunds' } });
    const v = verdict(d, [], [run('r4', 'v4', '2026-09-20', [['refunds', 80]]), run('r3', 'v3', '2026-09-18', [['refunds', 78]])]);
    expect(v.excludes_zero).toBe(false);
    expect(v.line).toBe('refunds: v4 about the same as v3 (+2, interval includes zero)');
  });

  it('returns the server verdict when the dashboard has no behaviour block (spec vector 4)', () => {
    const v = verdict({ agent: { id: 'a', serving: 'v3' }, verdict: { serving: 'v3' } }, [], []);
    expect(v).toMatchObject({ candidate: null, serving: 'v3', delta: null, regressions: 0, replicated: [] });
    expect(v.line).toBe('?: v3 is serving; no newer candidate yet');
  });

  it('with no serving version there is no delta and the line says so', () => {
    const d = dash({ agent: { id: 'a' }, verdict: {} });
    const v = verdict(d, [refunds], runs);
    expect(v.candidate).toBe('v4');
    expect(v.serving).toBeNull();
    expect(v.delta).toBeNull();
    expect(v.line).toBe('refunds: no candidate scored against a served version yet');
  });

  it('leaves archived runs out when it picks the newest candidate', () => {
    const versions = [{ v: 'v3', score: 78, ci: 2.7 }, { v: 'v5', score: 90, ci: 2.7 }, { v: 'v4', score: 83, ci: 2.7 }];
    const all = [run('r5', 'v5', '2026-09-25', [['refunds', 90]], { archived: true }), ...runs];
    expect(verdict(dash({ versions }), [refunds], all).candidate).toBe('v4');
    expect(verdict(dash({ versions }), [refunds], all.map((r) => ({ ...r, archived: false }))).candidate).toBe('v5');
  });

  it('breaks a tie in posting time toward the later dashboard entry', () => {
    const versions = [{ v: 'v3', score: 78, ci: 2.7 }, { v: 'v4', score: 83, ci: 2.7 }, { v: 'v5', score: 84, ci: 2.7 }];
    const same = [run('r4', 'v4', '2026-09-20', [['refunds', 83]]), run('r5', 'v5', '2026-09-20', [['refunds', 84]]), runs[1]];
    expect(verdict(dash({ versions }), [refunds], same).candidate).toBe('v5');
    expect(verdict(dash({ versions: [versions[0], versions[2], versions[1]] }), [refunds], same).candidate).toBe('v4');
  });

  it('refuses a version= with no score on the behaviour, as a ValueError', () => {
    expect(() => verdict(dash(), [refunds], runs, { version: 'v9' })).toThrow(StatsValueError);
    try {
      verdict(dash(), [refunds], runs, { version: 'v9' });
    } catch (error) {
      expect((error as StatsValueError).pythonType).toBe('ValueError');
      expect((error as Error).message).toContain('scored there: v3, v4');
    }
  });

  it('version= naming the served version compares nothing', () => {
    const v = verdict(dash(), [refunds], runs, { version: 'v3' });
    expect(v.delta).toBe(0);
    expect(v.line).toBe('refunds: v3 is the served version; no candidate to compare');
  });

  it('lists every gap of a claim: small n, weak judge, reward is the judge, contamination', () => {
    const b: BehaviorWire = { name: 'refunds', n: 30, judge: { agreement: 0.7, humanN: 40 }, rewardIsJudge: true, contamination: 3, noiseFloor: 1.5 };
    const v = verdict(dash({ behavior: b, versions: [{ v: 'v3', score: 60, ci: 2 }, { v: 'v4', score: 70, ci: 2 }] }), [b], []);
    expect(v.line).toBe(
      'unproven: refunds: v4 beats v3 by 10 (interval excludes zero, clears the noise floor of 1.5); judge agreement 0.7 on 40, n=30 ' +
        '(n=30 under 50; judge agreement 0.7 under 0.8; the training reward is the judge; contamination 3)',
    );
  });

  it('a drop that clears interval and floor trails, and regressions come from the runs when deltas are absent', () => {
    const rs = [run('r4', 'v4', '2026-09-20', [['refunds', 70], ['tone', 60], ['esc', 50]]), run('r3', 'v3', '2026-09-18', [['refunds', 78], ['tone', 65], ['esc', 55]])];
    const d = dash({ behaviors: ['refunds', 'tone', 'esc'], versions: [{ v: 'v3', score: 78, ci: 2.7 }, { v: 'v4', score: 70, ci: 2.7 }] });
    const v = verdict(d, [refunds], rs);
    expect(v.delta).toBe(-8);
    expect(v.regressions).toBe(2);
    expect(v.line).toBe('refunds: v4 trails v3 by 8 (interval excludes zero, clears the noise floor of 2.4); 2 behaviors lower (point estimates, no interval on that check); judge agreement 0.86 on 60, n=240');
  });

  it('no interval on one side is not a result, and the delta is rounded to one decimal', () => {
    const d = dash({ versions: [{ v: 'v3', score: 71.25 }, { v: 'v4', score: 75.3, ci: 1.2 }] });
    const v = verdict(d, [refunds], runs);
    expect(v.delta).toBe(4);
    expect(v.excludes_zero).toBeNull();
    expect(v.line).toBe('refunds: v4 scored +4 vs v3, no interval on one side, not a result (pass ci= on both); judge agreement 0.86 on 60, n=240');
  });

  it('replicated needs a different run beating the served version on another behaviour', () => {
    const hard: BehaviorWire = { name: 'hard', noiseFloor: 3 };
    const d = dash({ behaviors: ['refunds', 'hard'] });
    const same = [run('r4', 'v4', '2026-09-20', [['refunds', 83], ['hard', 60, 2]]), run('r3', 'v3', '2026-09-18', [['refunds', 78], ['hard', 40, 2]])];
    expect(verdict(d, [refunds, hard], same).replicated).toEqual([]); // only the candidate's own run moved
    const other = [run('rx', 'vx', '2026-09-21', [['hard', 60, 2]]), ...same];
    expect(verdict(d, [refunds, hard], other).replicated).toEqual(['hard']);
  });

  it('gradedBy falls back to the behaviours this client declared, not to the server list', () => {
    const bare: BehaviorWire = { name: 'refunds', n: 240, noiseFloor: 2.4 };
    const d = dash({ behavior: bare });
    expect(verdict(d, [{ ...bare, gradedBy: 'program' }], runs).graded_by).toBeNull();
    const local = verdict(d, [bare], runs, { declared: [{ name: 'refunds', gradedBy: 'program' }] });
    expect(local.graded_by).toBe('program');
    expect(local.line).toBe('refunds: v4 beats v3 by 5 (interval excludes zero, clears the noise floor of 2.4); graded by a program, n=240');
  });
});
