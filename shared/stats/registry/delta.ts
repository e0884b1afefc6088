// delta_report (stats-semantics.md section 8): did the change move the target without regressing the guards.
import { deltaReport, deltaReportOfSides, type DeltaOptions } from '../delta-report';
import { addDeltaSideRow, deltaPlan, deltaSide, mergeDeltaSides, type DeltaSide } from '../delta-side';
import { DELTA_SIDE_KEEP, deltaSideStartKey, keepablePlan, keptFoldKey } from '../kept-folds';
import { common, rowFold, rowsOf, statistic, type FoldInput, type Zod } from './define';
import { deltaReads, PASS_AT_RARELY } from './reads';

export function deltaReportSchema(z: Zod) {
  return z.looseObject({
    ok: z.boolean(),
    not_comparable: z.array(z.string()),
    target: z.string().nullable(),
    target_verdict: z.string().nullable(),
    headline_verdict: z.string().nullable(),
    target_delta: z.number().nullable(),
    target_ci95: common(z).interval(),
    n_paired_tasks: z.number().int(),
    improved: z.array(z.string()),
    regressions: z.array(z.string()),
    warnings: z.array(z.string()),
  });
}

export const deltaStatistic = statistic({
  name: 'delta_report',
  method: 'stats.delta',
  command: 'delta',
  summary: 'Did the change move the target without regressing the guards (spec 8)',
  sources: [
    { key: 'before', as: 'before', describe: 'the rows before the change (a dataset or run id, or a JSONL file)' },
    { key: 'after', as: 'after', describe: 'the rows after the change' },
  ],
  positional: ['before', 'after'],
  reads: deltaReads,
  flags: { by: 'by', run_std: 'number-or-map', lower_is_better: 'list' },
  schemas: (z) => {
    const c = common(z);
    return {
      params: z.object({
        target: z.string().nullable().optional(),
        must_not_regress: z.array(z.string()).optional(),
        lower_is_better: z.union([z.array(z.string()), z.record(z.string(), z.boolean())]).nullable().optional(),
        markers: z.array(z.string()).nullable().optional(),
        by: z.union([z.string(), z.boolean(), z.null()]).optional(),
        run_std: z.union([c.nonNegative(), z.record(z.string(), c.nonNegative().nullable()), z.null()]).optional(),
        run_std_runs: c.atLeast(1).nullable().optional(),
        proxy: z.string().nullable().optional(),
        n_boot: c.atLeast(1).optional(),
        seed: c.seed().optional(),
        balance_rollouts: z.boolean().optional(),
        alpha: c.unitOpen().optional(),
        power: c.unitOpen().optional(),
        ceiling_pass_rate: c.unit().optional(),
        answered_gap_points: c.nonNegative().optional(),
        answered_alpha: c.unitOpen().optional(),
      }),
      output: z.object({ report: deltaReportSchema(z) }),
    };
  },
  compute: (input) => ({ report: deltaReport(rowsOf(input, 'before'), rowsOf(input, 'after'), input.params) }),
  fold: deltaSidesFold((before, after, input) => ({ report: deltaReportOfSides(before, after, input.params) })),
});

/**
 * delta_report's fold: each side folded on its own (delta-side.ts), with the plan its params call for; the report
 * is computed from the two folds. Not with balance_rollouts, which trims the rows of both sides together. A
 * dataset's side is kept (kept-folds.ts), for any plan of row keys.
 */
export function deltaSidesFold(fromSides: (before: DeltaSide, after: DeltaSide, input: FoldInput) => object) {
  return rowFold<DeltaSide>({
    sources: ['before', 'after'],
    startKey: (input) => deltaSideStartKey(deltaPlan(input.params as DeltaOptions)),
    keepKey(input) {
      const plan = deltaPlan(input.params as DeltaOptions);
      return keepablePlan(plan) ? keptFoldKey(DELTA_SIDE_KEEP, deltaSideStartKey(plan)) : null;
    },
    applies: (input) => !input.params.balance_rollouts,
    // pass_at's rarely read fields (each side folds a pass_at), unless the grouping reads one on every row.
    rarely: (input) => PASS_AT_RARELY.filter((name) => name !== input.params.by),
    start: (input) => deltaSide(deltaPlan(input.params as DeltaOptions)),
    add: addDeltaSideRow,
    merge: mergeDeltaSides,
    fromFold: (states, input) => fromSides(states.before, states.after, input),
  });
}
