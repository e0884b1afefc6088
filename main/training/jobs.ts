// Training previews and exports in progress, by job id, so training.cancel can stop one (the engine's own registry,
// one per engine).
import { ApiError } from '../../shared/api/define';
import type { EngineContext } from '../engine/context';

const running = new WeakMap<EngineContext, Map<string, AbortController>>();

function jobsOf(ctx: EngineContext): Map<string, AbortController> {
  let jobs = running.get(ctx);
  if (!jobs) running.set(ctx, (jobs = new Map()));
  return jobs;
}

/** Runs `work` under a job id; a second job with the same id cancels the first (a preview superseded by the next). */
export async function withJob<T>(ctx: EngineContext, jobId: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const jobs = jobsOf(ctx);
  jobs.get(jobId)?.abort();
  const controller = new AbortController();
  jobs.set(jobId, controller);
  try {
    return await work(controller.signal);
  } finally {
    if (jobs.get(jobId) === controller) jobs.delete(jobId);
  }
}

export function cancelJob(ctx: EngineContext, jobId: string): boolean {
  const controller = jobsOf(ctx).get(jobId);
  if (!controller) return false;
  controller.abort();
  return true;
}

/** Throws the API's cancelled error once the job is stopped. */
export function checkCancelled(signal: AbortSignal, jobId: string): void {
  if (signal.aborted) throw new ApiError('cancelled', `training job ${jobId} was cancelled; no file was written`);
}
