// holdout_size (stats-semantics.md section 10.1): how many tasks a holdout needs to see an effect.
import { holdoutSize } from '../sizing';
import { common, statistic } from './define';
import { TASK_LABEL_READS } from './reads';

export const holdoutSizeStatistic = statistic({
  name: 'holdout_size',
  method: 'stats.holdoutSize',
  command: 'holdout-size',
  summary: 'How many tasks a holdout needs to see an effect (spec 10)',
  sources: [
    { key: 'before', as: 'before', optional: true, cli: 'flag', aliases: ['rows'], describe: 'rows of the current eval (base and k come from them)' },
    { key: 'after', as: 'after', optional: true, cli: 'flag', describe: 'rows after the change (the paired spread comes from both)' },
  ],
  positional: ['effect', 'base', 'k', 'power', 'alpha', 'before', 'after', 'task_std', 'rows', 'ceiling_pass_rate'],
  reads: TASK_LABEL_READS,
  schemas: (z) => {
    const c = common(z);
    return {
      params: z.object({
        effect: c.unitOpen(),
        // The SDK takes base = 0 (a task set that never passes); only outside [0, 1] is refused.
        base: c.unit().optional(),
        k: c.atLeast(1).optional(),
        power: c.unitOpen().optional(),
        alpha: c.unitOpen().optional(),
        task_std: z.number().gt(0, 'must be above 0').optional(),
        ceiling_pass_rate: c.unit().optional(),
      }),
      output: z.object({ report: z.looseObject({ n_tasks: z.number().int(), effect: z.number(), sd_source: z.string() }) }),
    };
  },
  compute(input) {
    const { effect, ...rest } = input.params;
    const { before, after } = input.sources;
    return { report: holdoutSize(effect as number, { ...rest, ...(before ? { before } : {}), ...(after ? { after } : {}) }) as Record<string, unknown> & { n_tasks: number; effect: number; sd_source: string } };
  },
});
