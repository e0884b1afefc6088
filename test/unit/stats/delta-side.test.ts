// delta_report from each side's fold (shared/stats/delta-side.ts): folded in parts cut anywhere, structured-cloned
// between threads and merged, the sides give exactly the report deltaReport gives on the rows, for rows that touch
// every reading the report makes (markers, guards, re-runs, slices, unequal k, blank replies, unpaired tasks).
import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../../shared/stats/compare-runs';
import { deltaReport, deltaReportOfSides, type DeltaOptions } from '../../../shared/stats/delta-report';
import { deltaPlan, deltaSideOf, mergeDeltaSides, type DeltaSide } from '../../../shared/stats/delta-side';

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

interface Shape {
  tasks: number;
  k: number;
  shift: number;
  evalRuns: number;
  blank: number;
}

function rows(seed: number, shape: Shape): unknown[] {
  const r = lcg(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const out: unknown[] = [];
  for (let t = 0; t < shape.tasks; t++) {
    const p = r();
    const k = t % 7 === 0 ? shape.k - 1 : shape.k;
    for (let i = 0; i < k; i++) {
      const row: Record<string, unknown> = { rollout_index: i, policy_version: `agent@v${shape.shift}` };
      const keyKind = r();
      if (keyKind < 0.85) row.scenario_id = `t${t}`;
      else if (keyKind < 0.93) row.task_id = t;
      else row.prompt = `prompt ${t}`;
      const rk = r();
      row.reward = rk < 0.04 ? null : rk < 0.07 ? pick(['1', '0', 0.5, true]) : r() < p + shape.shift ? 1 : 0;
      row.markers = { tool_calls: pick([0, 1, 2, 0.5, '3', null]), flat: 1, ...(r() < 0.5 ? { rare: r() } : {}) };
      row.category = r() < 0.05 ? '' : `c${t % 3}`;
      if (t % 2) row.slice = `s${t % 4}`;
      if (shape.evalRuns) row.lineage = { eval_run: i % shape.evalRuns, judge_version: 'j1' };
      row.final_text = r() < shape.blank ? '' : pick(['answer', '  ', '<think>x</think> ok', '<think>open']);
      row.sampling = { temperature: 0.7, max_tokens: 512 };
      row.finish_reason = r() < 0.05 ? 'length' : 'stop';
      row.judge_status = r() < 0.03 ? 'error' : 'ok';
      if (r() < 0.01) out.push(null);
      out.push(row);
    }
  }
  return out;
}

/** A side folded in two parts cut at `cut`, each sent through a structured clone as between threads, then merged. */
function foldedInParts(list: readonly unknown[], options: DeltaOptions, cut: number): DeltaSide {
  const plan = deltaPlan(options);
  const clone = (side: DeltaSide) => v8.deserialize(v8.serialize(side)) as DeltaSide;
  return mergeDeltaSides(clone(deltaSideOf(list.slice(0, cut), plan)), clone(deltaSideOf(list.slice(cut), plan)));
}

const OPTIONS: DeltaOptions[] = [
  {},
  { target: 'pass_at_1', must_not_regress: ['flat', 'tool_calls'] },
  { by: 'category', target: 'tool_calls' },
  { by: false, markers: ['tool_calls', 'missing'] },
  { run_std: 0.02, run_std_runs: 3, lower_is_better: ['tool_calls'] },
  { proxy: 'rare', n_boot: 300, seed: 4, alpha: 0.1 },
];

describe('delta_report from folded sides', () => {
  it('gives the report deltaReport gives on the rows, however the sides were cut', () => {
    const r = lcg(99);
    const shapes: Array<[Shape, Shape]> = [
      [{ tasks: 40, k: 4, shift: 0, evalRuns: 0, blank: 0 }, { tasks: 38, k: 4, shift: 0.2, evalRuns: 0, blank: 0.5 }],
      [{ tasks: 25, k: 3, shift: 0, evalRuns: 3, blank: 0 }, { tasks: 25, k: 2, shift: -0.1, evalRuns: 3, blank: 0 }],
      [{ tasks: 6, k: 1, shift: 0, evalRuns: 2, blank: 0.2 }, { tasks: 9, k: 2, shift: 0.3, evalRuns: 0, blank: 0 }],
    ];
    let warnings = 0;
    for (const [i, [shapeA, shapeB]] of shapes.entries()) {
      const before = rows(10 + i, shapeA);
      const after = rows(20 + i, shapeB);
      for (const options of OPTIONS) {
        const expected = deltaReport(before, after, options);
        warnings += expected.warnings.length;
        for (let c = 0; c < 3; c++) {
          const sides = [before, after].map((list) => foldedInParts(list, options, Math.floor(r() * (list.length + 1))));
          expect(deltaReportOfSides(sides[0], sides[1], options)).toEqual(expected);
        }
      }
    }
    expect(warnings).toBeGreaterThan(20); // the rows reach the report's checks, not only its happy path
  });

  it('on large row sets (the bootstraps by multinomial counts) too', () => {
    const before = rows(1, { tasks: 2500, k: 4, shift: 0, evalRuns: 0, blank: 0 });
    const after = rows(2, { tasks: 2500, k: 4, shift: 0.05, evalRuns: 0, blank: 0 });
    const options: DeltaOptions = { must_not_regress: ['tool_calls'] };
    expect(deltaReportOfSides(foldedInParts(before, options, 4321), foldedInParts(after, options, 77), options)).toEqual(deltaReport(before, after, options));
  });

  it('compares each metric and each group as compare_runs does on the rows themselves', () => {
    const before = rows(5, { tasks: 60, k: 4, shift: 0, evalRuns: 0, blank: 0 });
    const after = rows(6, { tasks: 60, k: 4, shift: 0.15, evalRuns: 0, blank: 0 });
    const report = deltaReport(before, after, { by: 'category', n_boot: 400, seed: 3 });
    const core = (r: Record<string, unknown>) => ({ delta: r.delta, ci95: r.ci95, mean_a: r.mean_a, mean_b: r.mean_b, n_paired: r.n_paired, verdict: r.verdict });
    const metrics = Object.keys(report.metrics);
    expect(metrics).toEqual(['pass_at_1', 'marker:flat', 'marker:rare', 'marker:tool_calls']);
    metrics.forEach((metric, i) => {
      const entry = report.metrics[metric] as unknown as Record<string, unknown>;
      const direct = compareRuns(before, after, { metric, n_boot: 400, seed: 3 + i, level: 0.95 });
      expect(core(entry)).toEqual(core(direct as unknown as Record<string, unknown>));
      expect(entry.p_value).toBe(direct.p_value);
    });
    const names = Object.keys(report.groups ?? {}).sort();
    expect(names).toEqual(['c0', 'c1', 'c2']);
    names.forEach((name, i) => {
      const inGroup = (list: unknown[]) => list.filter((row) => (row as Record<string, unknown> | null)?.category === name);
      const direct = compareRuns(inGroup(before), inGroup(after), { metric: 'pass_at_1', n_boot: 400, seed: 3 + 100 + i, level: 0.95 });
      expect(core(report.groups![name] as unknown as Record<string, unknown>)).toEqual(core(direct as unknown as Record<string, unknown>));
    });
  });

  it('keeps a group named like an Object.prototype property as its own entry', () => {
    const named = (list: unknown[]) => list.map((row, i) => ({ ...(row as Record<string, unknown>), category: ['__proto__', 'constructor', 'plain'][i % 3] }));
    const before = named(rows(7, { tasks: 60, k: 4, shift: 0, evalRuns: 0, blank: 0 }));
    const after = named(rows(8, { tasks: 60, k: 4, shift: 0.1, evalRuns: 0, blank: 0 }));
    const groups = deltaReport(before, after, { by: 'category', n_boot: 200 }).groups!;
    expect(Object.keys(groups).sort()).toEqual(['__proto__', 'constructor', 'plain']);
    expect(Object.getPrototypeOf(groups)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(groups, '__proto__')?.value).toHaveProperty('n_paired');
  });

  it('refuses sides folded without the grouping its options ask for', () => {
    const list = rows(3, { tasks: 10, k: 2, shift: 0, evalRuns: 0, blank: 0 });
    const plan = deltaPlan({ by: false });
    expect(() => deltaReportOfSides(deltaSideOf(list, plan), deltaSideOf(list, plan), { by: 'category' })).toThrow(/without the grouping category/);
  });
});
