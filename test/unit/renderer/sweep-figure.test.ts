// The sweep dots figure: grouped by prompt (the axis) and by model (one trace each), within the platform's rules.
import { describe, expect, it } from 'vitest';
import { checkFigure } from '../../../shared/platform/figure-rules';
import { sweepDots, splitLabel } from '../../../renderer/src/pages/compare/sweep-figure';

const variant = (label: string, points: number, ci: number) => ({ label, model: 'seeded', harness: 'abc', run: null, graded_rows: 8, scores: { policy: [points, ci, 4] as [number, number, number] } });
const report = {
  behavior: 'policy', test_version: 't-1', n_asks: 4, k: 2, noise_floor: 3, run_std: 0.01, noise_runs: 2, judge: null, best: null, unproven: true, text: '',
  variants: [variant('careful@a', 90, 4), variant('plain@a', 70, 5), variant('careful@b', 80, 6)],
};

describe('sweep dots', () => {
  it('puts prompts on the axis and one trace per model, with the intervals as error bars', () => {
    const { data, layout } = sweepDots(report);
    expect(data.map((t) => t.name)).toEqual(['a', 'b']);
    expect(data[0]).toMatchObject({ type: 'scatter', x: ['careful', 'plain'], y: [90, 70], error_y: { array: [4, 5] } });
    expect(data[1]).toMatchObject({ x: ['careful'], y: [80] });
    expect(checkFigure('sweep-dots', { data, layout }).ok).toBe(true);
  });

  it('reads a label with no model part as a prompt on the variant\'s model', () => {
    expect(splitLabel('h-abc', 'gpt')).toEqual({ prompt: 'h-abc', model: 'gpt' });
  });
});
