// curriculum (stats-semantics.md section 6): trainable tasks by tier, retired, not ready, the schedule.
import { curriculum } from '../curriculum';
import { common, rowsOf, statistic, type Zod } from './define';
import { TASK_LABEL_READS } from './reads';

const LISTS = ['schedule', 'trainable', 'retired', 'not_ready', 'thin'] as const;

export function curriculumReport(z: Zod) {
  const count = z.number().int();
  const task = z.looseObject({ task_id: z.string(), pass_rate: z.number(), n: z.number().int() });
  return z.looseObject({
    n_tasks: count, n_trainable: count, n_solved: count, n_not_ready: count, n_thin: count, n_in_band: count,
    thresholds: z.looseObject({ solved: z.number(), floor: z.number(), band: z.array(z.number()), min_rollouts: z.number() }),
    schedule: z.array(z.string()),
    trainable: z.array(task), retired: z.array(task), not_ready: z.array(task), thin: z.array(task),
    tiers: z.array(z.array(task)),
  });
}

export const curriculumStatistic = statistic({
  name: 'curriculum',
  method: 'stats.curriculum',
  command: 'curriculum',
  summary: 'Trainable tasks by tier, retired, not ready, the schedule (spec 6)',
  sources: [{ key: 'dataset_id', as: 'rows', describe: 'the rows (a dataset or run id, or a JSONL file)' }],
  positional: ['rows', 'solved', 'floor', 'band', 'tiers', 'min_rollouts'],
  reads: TASK_LABEL_READS,
  schemas: (z) => {
    const c = common(z);
    return {
      params: z.object({
        solved: c.unit().optional(),
        floor: c.unit().optional(),
        band: z.tuple([c.unit(), c.unit()]).optional(),
        tiers: c.atLeast(1).optional(),
        min_rollouts: c.atLeast(1).optional(),
      }),
      options: z.object({
        /** For screens: cut each task list (tiers, schedule, retired, ...) to this many entries; counts stay whole. */
        list_limit: c.atLeast(0).optional(),
      }),
      output: z.object({ report: curriculumReport(z), tier_sizes: z.array(z.number().int()).optional() }),
    };
  },
  compute(input) {
    const report = curriculum(rowsOf(input, 'rows'), input.params);
    const limit = input.options.list_limit;
    if (typeof limit !== 'number') return { report };
    const cut = <T>(list: T[]) => list.slice(0, limit);
    const out = { ...report, tiers: report.tiers.map(cut) };
    for (const key of LISTS) (out as Record<string, unknown>)[key] = cut(report[key] as unknown[]);
    return { report: out, tier_sizes: report.tiers.map((tier) => tier.length) };
  },
});
