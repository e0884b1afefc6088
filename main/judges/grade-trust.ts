// The trust check every grade ends with, as the SDK's run_judge ends with judge_trust: judge_trust (in the stats
// worker pool) over the graded rows that carry gold, summed up in the desk's plain verdict. Rows without gold give
// "not measured" (judge_trust's own unmeasured line), never a pass.
import type { GradeTrust } from '../../shared/api/grade';
import { trustView } from '../../shared/stats/trust-verdict';
import type { EngineContext } from '../engine/context';
import { readLabeledRows } from '../rows/index';
import { runStatistic } from '../stats-workers/engine-pool';

type Obj = Record<string, unknown>;

export function trustSummary(report: Obj): GradeTrust {
  const view = trustView(report);
  return {
    ok: report.ok === true,
    verdict: view.word,
    line: view.line,
    n_gold: view.nGold,
    n_labeled: typeof report.n_labeled === 'number' ? report.n_labeled : 0,
    gold_kind: typeof report.gold_kind === 'string' ? report.gold_kind : null,
    agreement: view.agreement,
    ci95: view.ci95,
    kappa: view.kappa,
    floors: { min_agreement: view.floor, min_kappa: view.kappaFloor },
    warnings: Array.isArray(report.warnings) ? (report.warnings as string[]) : [],
  };
}

/** judge_trust over the dataset's gold rows only (the labeling desk's read: the rest cannot move the numbers). */
export async function measureTrust(ctx: EngineContext, datasetId: string): Promise<GradeTrust> {
  const rows = ctx.dbPath === ':memory:' ? { rows: readLabeledRows(ctx.db, datasetId) } : { dataset_id: datasetId, labeled_only: true };
  const { report } = await runStatistic(ctx, 'judge_trust', { rows }, {});
  return trustSummary(report);
}

/** A check that could not run says so (the grade itself stands). */
export function unmeasuredTrust(reason: string): GradeTrust {
  const line = `Not measured: the trust check could not run (${reason}).`;
  return { ...trustSummary({}), line, warnings: [line] };
}
