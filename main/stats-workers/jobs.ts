// Runs one named statistics job on resolved row sets: the same code in a worker thread and in the CLI.
import { StatsValueError } from '../../shared/stats/errors';
import type { RowJudge } from '../judges/judge-types';
import type { RowSource, StatsJobOutput, StatsJobRequest } from './protocol';
import * as fns from './stats-functions';

type Obj = Record<string, unknown>;
export type ResolveRows = (source: RowSource) => unknown[];
export type JudgeLoader = (spec: string, options: { rubricFile?: string }) => Promise<RowJudge>;

function one(request: StatsJobRequest, name: string, resolve: ResolveRows): unknown[] {
  const source = request.sources[name];
  if (!source || Array.isArray(source)) throw new StatsValueError(`the ${name} rows are missing`);
  return resolve(source);
}

function optionalOne(request: StatsJobRequest, name: string, resolve: ResolveRows): unknown[] | undefined {
  return request.sources[name] ? one(request, name, resolve) : undefined;
}

function many(request: StatsJobRequest, name: string, resolve: ResolveRows): unknown[][] {
  const source = request.sources[name];
  if (!source) throw new StatsValueError(`the ${name} row sets are missing`);
  return (Array.isArray(source) ? source : [source]).map(resolve);
}

/** A loaded program judge as the function the statistics call: a failed verdict is an error for that row. */
export function judgeFunction(judge: RowJudge): fns.JudgeFn {
  return async (row: Obj) => {
    const verdict = await judge.judge(row);
    if (verdict.judge_status !== 'ok' || verdict.reward === null) {
      throw new Error(verdict.reason || `judge ${judge.name}: ${verdict.judge_status}`);
    }
    return verdict.markers ? { reward: verdict.reward, markers: verdict.markers } : verdict.reward;
  };
}

function splitPerTask(result: Obj, want: string[] | undefined): StatsJobOutput {
  const { per_task: perTask, ...report } = result;
  const output: StatsJobOutput = { report };
  if (!want?.includes('per_task')) return output;
  if (perTask instanceof Map) output.per_task = Object.fromEntries(perTask) as Record<string, number>;
  else if (perTask && typeof perTask === 'object') output.per_task = perTask as Record<string, number>;
  return output;
}

/** For screens: the curriculum's task lists cut to `limit` entries (counts and tier sizes kept beside them). */
function cutLists(report: Obj, limit: number): StatsJobOutput {
  const cut = (value: unknown) => (Array.isArray(value) ? value.slice(0, limit) : value);
  const tiers = Array.isArray(report.tiers) ? (report.tiers as unknown[][]) : [];
  const out: Obj = { ...report, tiers: tiers.map(cut) };
  for (const key of ['schedule', 'trainable', 'retired', 'not_ready', 'thin']) out[key] = cut(report[key]);
  return { report: out, tier_sizes: tiers.map((tier) => tier.length) };
}

function reliability(rows: unknown[], maxK: number | undefined): StatsJobOutput {
  const base = fns.passAt(rows, { min_k: 1 });
  const kMax = Math.max(1, Math.min(64, maxK ?? (typeof base.k === 'number' ? base.k : 1)));
  const points: Obj[] = [];
  for (let k = 1; k <= kMax; k++) {
    const r = k === base.k ? base : fns.passAt(rows, { k, min_k: 1 });
    points.push({
      k,
      pass_pow_k: r.pass_pow_k ?? null,
      pass_at_k: r.pass_at_k ?? null,
      pass_pow_k_ci95: r.pass_pow_k_ci95 ?? null,
      pass_at_k_ci95: r.pass_at_k_ci95 ?? null,
      n_groups_at_k: r.n_groups_at_k ?? 0,
    });
  }
  const { per_task: _perTask, ...report } = base;
  void _perTask;
  return { report, k_max: kMax, points };
}

export async function runStatsJob(request: StatsJobRequest, resolve: ResolveRows, loadJudge?: JudgeLoader): Promise<StatsJobOutput> {
  const p = request.params;
  switch (request.kind) {
    case 'pass_at':
      return splitPerTask(fns.passAt(one(request, 'rows', resolve), p), request.want);
    case 'reliability':
      return reliability(one(request, 'rows', resolve), p.max_k as number | undefined);
    case 'curriculum': {
      const { list_limit: limit, ...rest } = p;
      const report = fns.curriculum(one(request, 'rows', resolve), rest);
      return typeof limit === 'number' ? cutLists(report, limit) : { report };
    }
    case 'compare':
      return { report: fns.compareRuns(one(request, 'a', resolve), one(request, 'b', resolve), p) };
    case 'delta':
      return { report: fns.deltaReport(one(request, 'before', resolve), one(request, 'after', resolve), p) };
    case 'eval_variance':
      return { report: fns.evalVariance(many(request, 'runs', resolve), p) };
    case 'holdout_size': {
      const before = optionalOne(request, 'before', resolve);
      const after = optionalOne(request, 'after', resolve);
      return { report: fns.holdoutSize({ ...p, ...(before ? { before } : {}), ...(after ? { after } : {}) }) };
    }
    case 'decontaminate': {
      const against = many(request, 'against', resolve);
      const result = fns.decontaminate(one(request, 'rows', resolve), against.length === 1 ? against[0] : against, p);
      return { report: result.report, kept_indices: result.kept_indices };
    }
    case 'judge_trust': {
      let judge: RowJudge | undefined;
      if (request.judge) {
        if (!loadJudge) throw new StatsValueError('this build cannot load judges');
        judge = await loadJudge(request.judge.spec, { rubricFile: request.judge.rubricFile });
      }
      try {
        const params = judge ? { ...p, judge: judgeFunction(judge), judge_name: p.judge_name ?? judge.name } : p;
        return { report: await fns.judgeTrust(one(request, 'rows', resolve), params) };
      } finally {
        await judge?.close?.();
      }
    }
    default:
      throw new StatsValueError(`unknown statistics job "${String((request as { kind: unknown }).kind)}"`);
  }
}
