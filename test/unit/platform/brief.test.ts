import { describe, expect, it } from 'vitest';
import { brief, type BehaviorWire, type DashboardWire, type RunRow } from '../../../shared/platform';

const good: BehaviorWire = {
  name: 'refunds', testVersion: 't2', n: 240, judge: { agreement: 0.86, humanN: 60, lengthBias: 0.1, verified: true },
  noiseFloor: 2.4, contamination: 0, rewardIsJudge: false, rubric: 'pass when refunded after a lookup',
};
const dash = (over: Partial<DashboardWire> = {}): DashboardWire => ({ agent: { id: 'bot', model: 'm' }, behavior: good, behaviors: ['refunds'], versions: [], ...over });
const scoredRun = (id: string, version: string, createdAt: string, score: number, extra: Partial<RunRow> = {}): RunRow => ({
  id, version, createdAt, method: 'GRPO', record: { data: { train: 'set' } },
  evals: [{ behavior: 'refunds', score, ci: 2.7, n: 240, examples: [{ ok: true }] }], ...extra,
});

describe('brief (platform-api §5.3)', () => {
  it('nothing scored: counts the live runs and asks for one score', () => {
    const b = brief(dash(), [good], [{ id: 'r1', version: 'v1', method: 'GRPO' }, { id: 'r2', version: 'v2', archived: true }]);
    expect(b.happened).toEqual(['1 run posted, none scored yet.']);
    expect(b.scored).toBe(0);
    expect(b.next).toHaveLength(1);
    expect(b.url).toBe('https://while.ai/platform/runs?agent=bot');
    expect(brief(dash(), [good], []).happened).toEqual(['No runs posted yet.']);
  });

  it('one version: the happened line, and means says nothing to compare yet', () => {
    const b = brief(dash(), [good], [scoredRun('r1', 'v1', '2026-09-01', 83.25, { method: 'eval', record: null, notes: 'first' })]);
    expect(b.happened).toEqual(['1 scored run, no training yet, latest 2026-09-01.', 'refunds: v1 scored 83.2 of 100 on 240 asks (±2.7).']);
    expect(b.means).toMatch(/^One version scored once/);
    expect(b.next).toEqual([{ say: 'score the next version on the same set', cmd: 'tracked.run(version="v2").score(...)' }]);
  });

  it('every version at 95 or more reads as a set too easy', () => {
    const b = brief(dash(), [good], [scoredRun('r2', 'v2', '2026-09-02', 100), scoredRun('r1', 'v1', '2026-09-01', 96)]);
    expect(b.means).toMatch(/^A perfect score on 240 asks/);
    expect(b.next[0].say).toMatch(/^add harder tasks \(refunds: /); // the can-fail check fails first
  });

  it('failed checks become at most three steps, in the brief order', () => {
    const weak: BehaviorWire = { name: 'refunds', n: 20 };
    const b = brief(dash({ behavior: weak }), [weak], [scoredRun('r2', 'v2', '2026-09-02', 70, { evals: [{ behavior: 'refunds', score: 70, n: 20 }] }), scoredRun('r1', 'v1', '2026-09-01', 60, { evals: [{ behavior: 'refunds', score: 60, n: 20 }] })]);
    expect(b.next).toHaveLength(3);
    expect(b.next.map((s) => s.say.split(' (')[0])).toEqual(['add 30+ tasks', 'name the test set', 'check the judge against people']);
    expect(b.means).toMatch(/^20 asks give an interval too wide/);
  });

  it('the served version and the verdict lead means; a clear gain with no failed check says promote', () => {
    const d = dash({ agent: { id: 'bot', serving: 'v1' }, versions: [{ v: 'v1', score: 60, ci: 2.7 }, { v: 'v2', score: 70, ci: 2.7 }] });
    const rs = [scoredRun('r2', 'v2', '2026-09-02', 70), scoredRun('r1', 'v1', '2026-09-01', 60)];
    const b = brief(d, [good], rs);
    expect(b.means).toBe('v2 is better than v1 by 10 points, outside the noise.');
    expect(b.next).toEqual([{ say: 'promote v2', cmd: 'tracked.promote("v2")' }]);
    const flat = brief(dash({ agent: { id: 'bot', serving: 'v1' }, versions: [] }), [good], rs);
    expect(flat.means).toBe('v1 is the served version; each other version scored on the same set gets a verdict against it.');
  });

  it('readable: silent runs newest first with the overflow count, then rubric, graded rows and settings names', () => {
    const bare = (id: string, version: string, createdAt: string): RunRow => ({ id, version, createdAt, method: 'eval', evals: [{ behavior: 'refunds', score: 50 }] });
    const runs = [bare('a', 'lr5e-05-s17', '2026-09-01'), bare('b', 'v2', '2026-09-04'), bare('c', 'v3', '2026-09-03'), bare('d', 'v4', '2026-09-02')];
    const noRubric: BehaviorWire = { name: 'refunds' };
    const b = brief(dash({ behavior: noRubric }), [noRubric], runs);
    expect(b.readable.map((s) => s.say)).toEqual([
      'say what v2 changed',
      'say what v3 changed',
      'say what v4 changed (and 1 more)',
      'write down how refunds is judged',
      'show the graded rows behind refunds',
      'name iterations by what changed, not by settings (1 of 4 read like lr5e-05-s17)',
    ]);
    expect(b.readable[0].cmd).toContain('tracked.open("b")');
  });
});
