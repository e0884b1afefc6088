// eval_variance (stats-semantics.md section 9.1): re-run variance of an eval and its noise band.
import { evalVariance } from '../variance';
import { rowSetsOf, statistic } from './define';
import { evalVarianceReads } from './reads';

export const evalVarianceStatistic = statistic({
  name: 'eval_variance',
  method: 'stats.evalVariance',
  command: 'eval-variance',
  summary: 'Re-run variance of an eval and its noise band (spec 9)',
  sources: [{ key: 'dataset_ids', as: 'runs', many: true, describe: 'one run (split by its run ids) or several runs' }],
  positional: ['*runs'],
  reads: evalVarianceReads,
  schemas: (z) => ({
    params: z.object({ metric: z.string().optional(), by: z.string().nullable().optional() }),
    output: z.object({ report: z.looseObject({}) }),
  }),
  compute: (input) => ({ report: evalVariance(rowSetsOf(input, 'runs'), input.params) as Record<string, unknown> }),
});
