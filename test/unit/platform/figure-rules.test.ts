import { describe, expect, it } from 'vitest';
import { checkFigure, figureNameFrom } from '../../../shared/platform/figure-rules';

describe('platform figure rules', () => {
  it('accepts a small figure, fills nothing in, and drops the layout keys the API drops', () => {
    const out = checkFigure('reward-by-step', { data: [{ x: [1, 2], y: [0.1, 0.4] }], layout: { title: 'Reward', template: {}, images: [] } });
    expect(out.ok).toBe(true);
    if (out.ok) {
      expect(out.figure.layout).toEqual({ title: 'Reward' });
      expect(out.bytes).toBe(JSON.stringify(out.figure).length);
    }
  });

  it('refuses bad names, too many traces, unknown trace types, long captions and figures over 200,000 bytes', () => {
    const problems = (result: ReturnType<typeof checkFigure>) => (result.ok ? [] : result.problems);
    expect(problems(checkFigure('Bad_Name', { data: [{}] }))[0]).toMatch(/name/);
    expect(problems(checkFigure('ok', { data: Array.from({ length: 51 }, () => ({})) }))[0]).toMatch(/1 to 50 traces/);
    expect(problems(checkFigure('ok', { data: [] }))[0]).toMatch(/1 to 50 traces/);
    expect(problems(checkFigure('ok', { data: [{ type: 'heatmap' }] }))[0]).toMatch(/heatmap/);
    expect(problems(checkFigure('ok', { data: [{}] }, 'x'.repeat(1025)))[0]).toMatch(/caption/);
    const big = { data: [{ y: Array.from({ length: 40_000 }, (_, i) => i / 3) }] };
    expect(problems(checkFigure('ok', big))[0]).toMatch(/at most 200,000/);
  });

  it('counts bytes as UTF-8 and makes names from titles', () => {
    const out = checkFigure('n', { data: [{ name: '±'.repeat(10) }] });
    expect(out.ok && out.bytes).toBe(JSON.stringify({ data: [{ name: '±'.repeat(10) }], layout: {} }).length + 10);
    expect(figureNameFrom('Per-task paired differences (sorted)')).toBe('per-task-paired-differences-sorted');
    expect(figureNameFrom('***')).toBe('figure');
  });
});
