// The compare screen's and `while-desk compare`'s one job: delta_report of the two runs plus the per-task table
// (each task's pass_at rate on both sides), on rows read once. Before, the screen asked for stats.delta and two
// full stats.passAt (three jobs, two of them computing three bootstraps and a run config only for per_task).
// Every number is what those calls give: the report is deltaReport's, the rates pass_at's own per_task. The table
// goes as columns (PairedTaskColumns), a quarter of the bytes of its rows.
import { deltaReport, deltaReportOfSides } from '../delta-report';
import { pairedTaskTable, toTaskColumns } from '../paired-tasks';
import { perTaskRates } from '../pass-at';
import { meansOf } from '../task-sums';
import { rowsOf, statistic, type Zod } from './define';
import { deltaReportSchema, deltaSidesFold, deltaStatistic } from './delta';

/** The per-task table as columns (paired-tasks.ts: PairedTaskColumns); fromTaskColumns makes its rows. */
export function pairedTaskTableSchema(z: Zod) {
  const rate = z.number().nullable();
  const count = z.number().int();
  return z.object({
    task: z.array(z.string()),
    baseline: z.array(rate),
    candidate: z.array(rate),
    n_paired: count,
    n_improved: count,
    n_regressed: count,
    n_same: count,
    n_only_baseline: count,
    n_only_candidate: count,
  });
}

export const compareReportStatistic = statistic({
  name: 'compare_report',
  method: 'stats.compareReport',
  command: 'compare-report',
  summary: 'delta_report of two runs plus every task side by side (the compare screen, `while-desk compare`)',
  sources: [
    { key: 'before', as: 'before', describe: 'the baseline rows (a dataset or run id, or a JSONL file)' },
    { key: 'after', as: 'after', describe: 'the candidate rows' },
  ],
  positional: ['before', 'after'],
  reads: deltaStatistic.reads,
  flags: deltaStatistic.flags,
  schemas: (z) => ({
    params: deltaStatistic.schemas(z).params,
    output: z.object({ report: deltaReportSchema(z), task_table: pairedTaskTableSchema(z) }),
  }),
  compute(input) {
    const before = rowsOf(input, 'before');
    const after = rowsOf(input, 'after');
    return { report: deltaReport(before, after, input.params), task_table: toTaskColumns(pairedTaskTable(perTaskRates(before), perTaskRates(after))) };
  },
  // Each side folded in a thread of its own; the per-task rates come from the pass_at fold inside each side.
  fold: deltaSidesFold((before, after, input) => ({
    report: deltaReportOfSides(before, after, input.params),
    task_table: toTaskColumns(pairedTaskTable(meansOf(before.passAt.tasks), meansOf(after.passAt.tasks))),
  })),
});
