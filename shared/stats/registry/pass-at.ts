// pass_at (stats-semantics.md section 5): pass@1, pass^k and pass@k with intervals over tasks.
import { passAt, passAtDict, passAtFrom, type PassAtResult } from '../pass-at';
import { addPassAtRow, mergePassAt, passAtFold, type PassAtFold } from '../pass-at-fold';
import { common, rowFold, rowsOf, statistic, type ComputeInput, type Zod } from './define';
import { PASS_AT_RARELY, PASS_AT_READS } from './reads';

export function passAtReport(z: Zod) {
  const c = common(z);
  const share = z.number().nullable();
  return z.looseObject({
    k: z.number().int(),
    pass_at_1: share,
    pass_pow_k: share,
    pass_at_k: share,
    headroom: share,
    n_groups: z.number().int(),
    n_groups_at_k: z.number().int(),
    n_groups_imputed: z.number().int(),
    n_rows: z.number().int(),
    note: z.string(),
    ci95: c.interval(),
    pass_pow_k_ci95: c.interval(),
    pass_at_k_ci95: c.interval(),
    config: z.looseObject({ n_tasks: z.number().int(), k: z.number().int(), mixed: z.array(z.string()) }),
  });
}

/** The job output from pass_at's result: the report, and each task's rate when asked for. */
function passAtOutput(result: PassAtResult, options: ComputeInput['options']) {
  return { report: passAtDict(result), ...(options.per_task ? { per_task: result.per_task } : {}) };
}

const passAtOptions = (input: Pick<ComputeInput, 'params' | 'options'>) => ({ ...input.params, ...(input.options.intervals === false ? { intervals: false } : {}) });

export const passAtStatistic = statistic({
  name: 'pass_at',
  method: 'stats.passAt',
  command: 'pass-at',
  summary: 'pass@1, pass^k and pass@k with intervals over tasks (spec 5)',
  sources: [{ key: 'dataset_id', as: 'rows', describe: 'the rows (a dataset or run id, or a JSONL file)' }],
  positional: ['rows', 'k', 'min_k', 'unanimous_short'],
  reads: PASS_AT_READS,
  flags: { k: 'int-or-null' },
  schemas: (z) => ({
    params: z.object({
      k: common(z).atLeast(1).nullable().optional(),
      min_k: common(z).atLeast(0).optional(),
      unanimous_short: z.boolean().optional(),
    }),
    options: z.object({
      /** Also return each task's pass rate (large on big runs; off by default). */
      per_task: z.boolean().optional(),
      /** false: no bootstrap intervals (the run summary's pass@1 needs none, and they are most of the cost). */
      intervals: z.boolean().optional(),
    }),
    output: z.object({ report: passAtReport(z), per_task: z.record(z.string(), z.number()).optional() }),
  }),
  compute: (input) => passAtOutput(passAt(rowsOf(input, 'rows'), passAtOptions(input)), input.options),
  fold: rowFold<PassAtFold>({
    sources: ['rows'],
    start: passAtFold,
    add: addPassAtRow,
    merge: mergePassAt,
    fromFold: (states, input) => passAtOutput(passAtFrom(states.rows, passAtOptions(input)), input.options),
    rarely: PASS_AT_RARELY,
  }),
  sdkResult: (output) => ({ result: output.report, aux: { per_task: output.per_task } }),
});
