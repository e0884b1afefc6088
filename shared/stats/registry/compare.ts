// compare_runs (stats-semantics.md section 7): two runs per task, paired when possible.
import { compareRuns } from '../compare-runs';
import { common, rowsOf, statistic, type Zod } from './define';
import { METRIC_READS } from './reads';

export function compareReport(z: Zod) {
  const c = common(z);
  return z.looseObject({
    metric: z.string(),
    paired: z.boolean(),
    n_paired: z.number().int(),
    n_only_a: z.number().int(),
    n_only_b: z.number().int(),
    n_used: z.number().int(),
    mean_a: z.number().nullable(),
    mean_b: z.number().nullable(),
    delta: z.number().nullable(),
    ci95: c.interval(),
    level: z.number(),
    p_value: z.number().nullable(),
    verdict: z.string(),
    note: z.string(),
  });
}

export const compareStatistic = statistic({
  name: 'compare_runs',
  method: 'stats.compare',
  command: 'compare',
  summary: 'Compare two runs per task, paired when possible (spec 7)',
  sources: [
    { key: 'a', as: 'a', describe: 'run A (a dataset or run id, or a JSONL file)' },
    { key: 'b', as: 'b', describe: 'run B' },
  ],
  positional: ['a', 'b', 'metric', 'n_boot', 'seed', 'min_paired', 'level'],
  reads: METRIC_READS,
  schemas: (z) => {
    const c = common(z);
    return {
      params: z.object({
        metric: z.string().optional(),
        n_boot: c.atLeast(1).optional(),
        seed: c.seed().optional(),
        min_paired: c.atLeast(0).optional(),
        level: c.unitOpen().optional(),
      }),
      output: z.object({ report: compareReport(z) }),
    };
  },
  compute: (input) => ({ report: compareRuns(rowsOf(input, 'a'), rowsOf(input, 'b'), input.params) }),
});
