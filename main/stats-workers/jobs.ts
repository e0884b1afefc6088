// Runs one statistics job: the registry's entry for its kind, on the row sets its sources resolve to.
import { StatsValueError } from '../../shared/stats/errors';
import { statisticNamed, type ComputeInput, type JudgeFn, type SourceSpec } from '../../shared/stats/registry/index';
import type { RowFold } from '../../shared/stats/registry/define';
import type { JudgeSettings } from '../../shared/schema/run-settings';
import type { RowJudge } from '../judges/judge-types';
import type { JobSource, StatsJobOutput, StatsJobRequest } from './protocol';

type Obj = Record<string, unknown>;
/** A source's rows; `reads` names the fields the statistic reads (a reader may parse only those). */
export type ResolveRows = (source: JobSource, reads?: readonly string[]) => unknown[] | Promise<unknown[]>;
/** A source folded by the statistic's fold (rows read one at a time, none kept); null: this source is not folded. */
export type ResolveFold = (source: JobSource, kind: string, fold: RowFold) => Promise<unknown> | null;
export type JudgeLoader = (spec: string | JudgeSettings, options: { rubricFile?: string }) => Promise<RowJudge>;

/** A loaded program judge as the function the statistics call: a failed verdict is an error for that row. */
export function judgeFunction(judge: RowJudge): JudgeFn {
  return async (row: Obj) => {
    const verdict = await judge.judge(row);
    if (verdict.judge_status !== 'ok' || verdict.reward === null) {
      throw new Error(verdict.reason || `judge ${judge.name}: ${verdict.judge_status}`);
    }
    return verdict.markers ? { reward: verdict.reward, markers: verdict.markers } : verdict.reward;
  };
}

export async function runStatsJob(request: StatsJobRequest, resolve: ResolveRows, loadJudge?: JudgeLoader, resolveFold?: ResolveFold): Promise<StatsJobOutput> {
  const stat = statisticNamed(request.kind);
  if (!stat) throw new StatsValueError(`unknown statistics job "${String(request.kind)}"`);
  const options: Obj = { ...request.options, ...(request.want?.includes('per_task') ? { per_task: true } : {}) };
  const folded = stat.fold && !request.judge ? request.sources[stat.fold.source] : undefined;
  if (stat.fold && folded && !Array.isArray(folded) && Object.keys(request.sources).length === 1) {
    const state = resolveFold?.(folded, stat.name, stat.fold);
    if (state) return stat.fold.fromFold(await state, { params: request.params, options }) as unknown as StatsJobOutput;
  }
  const sources: ComputeInput['sources'] = {};
  for (const spec of stat.sources as readonly SourceSpec[]) {
    const given = request.sources[spec.as];
    if (given === undefined) {
      if (spec.optional) continue;
      throw new StatsValueError(`the ${spec.as} rows are missing`);
    }
    const list = Array.isArray(given) ? given : [given];
    if (!spec.many && list.length !== 1) throw new StatsValueError(`${spec.as} takes one row source (got ${list.length})`);
    const rows = await Promise.all(list.map((source) => resolve(source, stat.reads)));
    sources[spec.as] = spec.many ? rows : rows[0];
  }
  let judge: RowJudge | undefined;
  if (request.judge) {
    if (!loadJudge) throw new StatsValueError('this build cannot load judges');
    judge = await loadJudge(request.judge.spec, { rubricFile: request.judge.rubricFile });
  }
  try {
    const params = judge && request.params.judge_name === undefined ? { ...request.params, judge_name: judge.name } : request.params;
    const input: ComputeInput = { sources, params, options, judge: judge ? judgeFunction(judge) : undefined };
    return (await stat.compute(input)) as unknown as StatsJobOutput;
  } finally {
    await judge?.close?.();
  }
}
