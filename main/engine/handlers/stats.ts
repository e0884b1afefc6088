// Handlers for the stats domain: every statistic runs in the worker pool, never on the engine's thread.
import { randomUUID } from 'node:crypto';
import type { statsApi } from '../../../shared/api/stats';
import { readDatasetRows, readLabeledRows } from '../../rows/index';
import { existingStatsPool, runStatistic } from '../../stats-workers/engine-pool';
import type { RowSource, StatsJobKind, StatsJobOutput, StatsJobRequest } from '../../stats-workers/protocol';
import type { EngineContext } from '../context';
import { requireDataset } from './datasets';
import type { HandlerMap } from './types';

/** A dataset as a row source: workers read it themselves, unless the database lives only in this process. */
function source(ctx: EngineContext, id: string, labeledOnly = false): RowSource {
  requireDataset(ctx, id);
  if (ctx.dbPath === ':memory:') return { rows: labeledOnly ? readLabeledRows(ctx.db, id) : readDatasetRows(ctx.db, id) };
  return labeledOnly ? { dataset_id: id, labeled_only: true } : { dataset_id: id };
}

/** Only the keyword arguments the caller gave; the statistics apply the SDK's defaults to the rest. */
function given(input: Record<string, unknown>, omit: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) if (value !== undefined && !omit.includes(key)) out[key] = value;
  return out;
}

async function runJob(
  ctx: EngineContext,
  method: string,
  kind: StatsJobKind,
  sources: StatsJobRequest['sources'],
  input: Record<string, unknown>,
  omit: string[],
  judge?: StatsJobRequest['judge'],
  want?: string[],
): Promise<StatsJobOutput & { job_id: string }> {
  const jobId = (input.job_id as string | undefined) ?? randomUUID();
  return runStatistic(ctx, kind, sources, given(input, ['job_id', ...omit]), {
    jobId,
    judge,
    want,
    onState: (state, message) => ctx.emit('stats.job', { job_id: jobId, method, state, message }),
  });
}

export const statsHandlers: HandlerMap<keyof typeof statsApi> = {
  'stats.passAt': async (input, ctx) => {
    const want = input.per_task ? ['per_task'] : undefined;
    const out = await runJob(ctx, 'stats.passAt', 'pass_at', { rows: source(ctx, input.dataset_id) }, input, ['dataset_id', 'per_task'], undefined, want);
    return { job_id: out.job_id, report: out.report, per_task: out.per_task };
  },
  'stats.reliability': async (input, ctx) => {
    const out = await runJob(ctx, 'stats.reliability', 'reliability', { rows: source(ctx, input.dataset_id) }, input, ['dataset_id']);
    return { job_id: out.job_id, k_max: out.k_max ?? 1, points: (out.points ?? []) as never };
  },
  'stats.curriculum': async (input, ctx) => {
    const out = await runJob(ctx, 'stats.curriculum', 'curriculum', { rows: source(ctx, input.dataset_id) }, input, ['dataset_id']);
    return { job_id: out.job_id, report: out.report, tier_sizes: out.tier_sizes };
  },
  'stats.judgeTrust': async (input, ctx) => {
    const judge = input.judge ? { spec: input.judge, rubricFile: input.rubric_file } : undefined;
    const rows = source(ctx, input.dataset_id, input.labeled_only === true);
    const out = await runJob(ctx, 'stats.judgeTrust', 'judge_trust', { rows }, input, ['dataset_id', 'judge', 'rubric_file', 'labeled_only'], judge);
    return { job_id: out.job_id, report: out.report };
  },
  'stats.compare': async (input, ctx) => {
    const out = await runJob(ctx, 'stats.compare', 'compare', { a: source(ctx, input.a), b: source(ctx, input.b) }, input, ['a', 'b']);
    return { job_id: out.job_id, report: out.report };
  },
  'stats.delta': async (input, ctx) => {
    const sources = { before: source(ctx, input.before), after: source(ctx, input.after) };
    const out = await runJob(ctx, 'stats.delta', 'delta', sources, input, ['before', 'after']);
    return { job_id: out.job_id, report: out.report };
  },
  'stats.evalVariance': async (input, ctx) => {
    const runs = input.dataset_ids.map((id) => source(ctx, id));
    const out = await runJob(ctx, 'stats.evalVariance', 'eval_variance', { runs }, input, ['dataset_ids']);
    return { job_id: out.job_id, report: out.report };
  },
  'stats.holdoutSize': async (input, ctx) => {
    const sources: StatsJobRequest['sources'] = {};
    if (input.before) sources.before = source(ctx, input.before);
    if (input.after) sources.after = source(ctx, input.after);
    const out = await runJob(ctx, 'stats.holdoutSize', 'holdout_size', sources, input, ['before', 'after']);
    return { job_id: out.job_id, report: out.report };
  },
  'stats.decontaminate': async (input, ctx) => {
    const sources = { rows: source(ctx, input.dataset_id), against: input.against.map((id) => source(ctx, id)) };
    const out = await runJob(ctx, 'stats.decontaminate', 'decontaminate', sources, input, ['dataset_id', 'against']);
    return { job_id: out.job_id, report: out.report, kept_indices: out.kept_indices ?? [] };
  },
  'stats.cancel': (input, ctx) => ({ cancelled: existingStatsPool(ctx)?.cancel(input.job_id) ?? false }),
};
