import { describe, expect, it } from 'vitest';
import { evalChecks, type BehaviorWire } from '../../../shared/platform';

const byKey = (b: BehaviorWire, versions: Parameters<typeof evalChecks>[1]) => Object.fromEntries(evalChecks(b, versions).checks.map((c) => [c.key, c]));

describe('eval checks (platform-api §5.2)', () => {
  it('keeps the frozen order and counts only measured checks', () => {
    const out = evalChecks({ name: 'x' }, []);
    expect(out.checks.map((c) => c.key)).toEqual(['frozen', 'size', 'judge', 'length', 'noise', 'contamination', 'reward', 'canfail']);
    const c = Object.fromEntries(out.checks.map((k) => [k.key, k]));
    expect(c.length.ok).toBeNull();
    expect(c.length.value).toBe('—');
    expect(c.canfail).toMatchObject({ ok: null, value: 'no scores' });
    expect(c.size).toMatchObject({ ok: false, value: 'n not declared' });
    expect(out.total).toBe(6);
    expect(out.good).toBe(0);
    expect(out.verdict).toBe('weak · frozen, size, judge, noise floor, clean, reward ≠ judge');
  });

  it('a program grader passes the judge check and says so', () => {
    const c = byKey({ name: 'sql', gradedBy: 'program', judge: { agreement: 0.2 } }, [{ v: 'v1', score: 50 }]);
    expect(c.judge).toMatchObject({ ok: true, value: 'graded by a program' });
  });

  it('judge values: weak agreement, too few labels, and a verified good judge', () => {
    expect(byKey({ name: 'x', judge: { agreement: 0.754, humanN: 80, verified: true } }, []).judge).toMatchObject({ ok: false, value: '0.75 on 80' });
    expect(byKey({ name: 'x', judge: { agreement: 0.9, humanN: 20, verified: true } }, []).judge).toMatchObject({ ok: false, value: '0.90 on 20 (few)', action: 'label 30+ more by hand' });
    expect(byKey({ name: 'x', judge: { agreement: 0.9, verified: true } }, []).judge).toMatchObject({ ok: false, value: '0.90 on ? (few)' });
    expect(byKey({ name: 'x', judge: { agreement: 0.9, humanN: 50, verified: true } }, []).judge).toMatchObject({ ok: true, value: '0.90 on 50' });
    expect(byKey({ name: 'x', judge: { humanN: 50 } }, []).judge).toMatchObject({ ok: false, value: 'unmeasured' });
  });

  it('size from the first version with an n, resolving sqrt(2) x the median ci', () => {
    const c = byKey({ name: 'x' }, [{ v: 'a', score: 50 }, { v: 'b', score: 60, n: 80, ci: 2 }, { v: 'c', score: 55, n: 30 }]);
    expect(c.size).toMatchObject({ ok: true, value: 'n=80 · resolves ≥ 2.8 pts', action: 'add tasks' });
    expect(byKey({ name: 'x', n: 80 }, [{ v: 'a', score: 1 }]).size.value).toBe('n=80');
  });

  it('noise, contamination, reward and can-fail values', () => {
    const one = byKey({ name: 'x', noiseFloor: 1.5, contamination: 4, rewardIsJudge: true }, [{ v: 'v1', score: 97 }]);
    expect(one.noise).toMatchObject({ ok: true, value: '±1.5' });
    expect(one.contamination).toMatchObject({ ok: false, value: '4 in training data' });
    expect(one.reward).toMatchObject({ ok: false, value: 'same model' });
    expect(one.canfail).toMatchObject({ ok: false, value: 'v1 already 97' });
    const many = byKey({ name: 'x', noiseFloor: 3 }, [{ v: 'v2', score: 62 }, { v: 'v1', score: 60 }, { v: 'v3', score: 70.25 }]);
    expect(many.noise.value).toBe('±3 · 1 of 2 clear it'); // base is the lowest (v1): v3 clears, v2 does not
    expect(many.canfail).toMatchObject({ ok: true, value: 'v1 60 → best 70.2' });
    expect(byKey({ name: 'x' }, [{ v: 'only', score: 40 }]).canfail.value).toBe('only 40');
  });

  it('a version named base is the base even when it is not the lowest', () => {
    const c = byKey({ name: 'x', noiseFloor: 2 }, [{ v: 'v1', score: 50 }, { v: 'base', score: 60 }, { v: 'v2', score: 61 }]);
    expect(c.noise.value).toBe('±2 · 1 of 2 clear it');
    expect(c.canfail.value).toBe('base 60 → best 61');
  });
});
