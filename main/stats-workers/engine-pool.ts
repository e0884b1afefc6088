// The engine's one stats pool, and the one way engine code runs a statistic in it (handlers, runs, grading).
import { randomUUID } from 'node:crypto';
import type { EngineContext } from '../engine/context';
import { keepFold } from '../rows/kept-folds';
import { StatsPool, type RunOptions } from './pool';
import type { StatsJobKind, StatsJobOutput, StatsJobRequest } from './protocol';

const pools = new WeakMap<EngineContext, StatsPool>();

/** The engine's pool, started on first use and closed with the engine. */
export function statsPool(ctx: EngineContext): StatsPool {
  let pool = pools.get(ctx);
  if (!pool) {
    const created = new StatsPool({
      dbPath: ctx.dbPath === ':memory:' ? null : ctx.dbPath,
      // A dataset's fold a job made is kept for the next job on the same version of it (the compare screen again).
      onKeep: (fold) => keepFold(ctx.db, fold.dataset_id, fold.key, fold.version, fold.state),
    });
    pools.set(ctx, created);
    ctx.onClose(() => created.close());
    pool = created;
  }
  return pool;
}

/** The pool if one was started (cancel needs no new pool). */
export function existingStatsPool(ctx: EngineContext): StatsPool | undefined {
  return pools.get(ctx);
}

/** Runs one statistic of the registry (`kind` is its name, e.g. 'pass_at') in the worker pool; resolves with its output and job id. */
export async function runStatistic(
  ctx: EngineContext,
  kind: StatsJobKind,
  sources: StatsJobRequest['sources'],
  params: Record<string, unknown>,
  options: RunOptions & Pick<StatsJobRequest, 'judge' | 'want' | 'options'> = {},
): Promise<StatsJobOutput & { job_id: string }> {
  const jobId = options.jobId ?? randomUUID();
  const { result } = statsPool(ctx).run(
    { kind, sources, params, options: options.options, judge: options.judge, want: options.want },
    { jobId, onState: options.onState },
  );
  return { ...(await result), job_id: jobId };
}
