// Runs one statistics job: the registry's entry for its kind, on the row sets its sources resolve to.
import { StatsValueError } from '../../shared/stats/errors';
import { statisticNamed, type ComputeInput, type JudgeFn, type SourceSpec } from '../../shared/stats/registry/index';
import { bindFold, foldStartKey, readsFor, type BoundFold, type RowFold } from '../../shared/stats/registry/define';
import { placementOf, type FoldPlacement } from './placement';
import type { JudgeSettings } from '../../shared/schema/run-settings';
import type { RowJudge } from '../judges/judge-types';
import type { JobSource, StatsJobOutput, StatsJobRequest } from './protocol';

type Obj = Record<string, unknown>;
/** A source's rows, each holding only the fields `reads` names (the statistic's declaration; 'row': whole rows). */
export type ResolveRows = (source: JobSource, reads: readonly string[] | 'row') => unknown[] | Promise<unknown[]>;
/**
 * How a worker folds sources (rows read one at a time, none kept): `folds` says whether it can fold this source (a
 * file or a whole dataset; not rows sent along, not a dataset's labeled rows alone), `fold` folds it.
 */
export interface ResolveFold {
  folds(source: JobSource): boolean;
  /** `startKey`: what the fold's start read of the job (a fold made ahead with another key is not this job's). */
  fold(source: JobSource, kind: string, fold: BoundFold, params: Obj, placement: FoldPlacement, startKey: string): Promise<unknown>;
}

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

/** The job's sources by fold source name when the statistic's fold can take them all, else null (computed on rows). */
function foldedSources(fold: RowFold | undefined, request: StatsJobRequest, options: Obj, resolveFold?: ResolveFold): Array<[string, JobSource]> | null {
  if (!fold || request.judge || !resolveFold) return null;
  if (Object.keys(request.sources).length !== fold.sources.length || fold.applies?.({ params: request.params, options }) === false) return null;
  const out: Array<[string, JobSource]> = [];
  for (const name of fold.sources) {
    const source = request.sources[name];
    if (source === undefined || Array.isArray(source) || !resolveFold.folds(source)) return null;
    out.push([name, source]);
  }
  return out;
}

export async function runStatsJob(request: StatsJobRequest, resolve: ResolveRows, loadJudge?: JudgeLoader, resolveFold?: ResolveFold): Promise<StatsJobOutput> {
  const stat = statisticNamed(request.kind);
  if (!stat) throw new StatsValueError(`unknown statistics job "${String(request.kind)}"`);
  const options: Obj = { ...request.options, ...(request.want?.includes('per_task') ? { per_task: true } : {}) };
  const folded = foldedSources(stat.fold, request, options, resolveFold);
  if (stat.fold && folded && resolveFold) {
    // One source: split in two threads. Two or more: the first folded here, each other one mostly in a helper
    // thread, started first (a fold here runs to its end before this thread does anything else).
    const input = { params: request.params, options };
    const bound = bindFold(stat, input);
    const key = foldStartKey(stat.fold, input);
    const folds: Array<Promise<unknown>> = [];
    for (let i = folded.length - 1; i >= 0; i--) folds[i] = resolveFold.fold(folded[i][1], stat.name, bound, request.params, placementOf(i, folded.length), key);
    // Every fold is awaited; the first source's error, in source order, is the one reported (as reading rows would).
    const settled = await Promise.allSettled(folds);
    const failed = settled.find((outcome) => outcome.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    const byName = Object.fromEntries(folded.map(([name], i) => [name, (settled[i] as PromiseFulfilledResult<unknown>).value]));
    return stat.fold.fromFold(byName, input) as unknown as StatsJobOutput;
  }
  const sources: ComputeInput['sources'] = {};
  const reads = readsFor(stat.reads, { params: request.params, options });
  for (const spec of stat.sources as readonly SourceSpec[]) {
    const given = request.sources[spec.as];
    if (given === undefined) {
      if (spec.optional) continue;
      throw new StatsValueError(`the ${spec.as} rows are missing`);
    }
    const list = Array.isArray(given) ? given : [given];
    if (!spec.many && list.length !== 1) throw new StatsValueError(`${spec.as} takes one row source (got ${list.length})`);
    const rows = await Promise.all(list.map((source) => resolve(source, reads)));
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
