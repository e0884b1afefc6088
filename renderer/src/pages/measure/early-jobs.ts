// A statistics job asked for before the page that shows it has even loaded: the window starts the job its address
// will ask for (the compare screen's report: address-jobs.ts), and that page's useStatsJob takes it instead of
// asking again. The job then starts some 0.3 s sooner, and the page's code loads and renders while it runs.
import type { MethodInput, MethodName, MethodOutput } from '../../../../shared/api/index';
import { desk } from '../../api/desk';
import { newClientId } from '../../api/ids';

type StatsMethod = Extract<MethodName, `stats.${string}`>;

interface EarlyJob {
  jobId: string;
  result: Promise<unknown>;
}

const early = new Map<string, EarlyJob>();

/**
 * Starts `method(input)` now, for the useStatsJob that will ask for it under `key`. One left untaken (its page was
 * left before it rendered, or asked with other settings) is cancelled: only the newest address's job is wanted.
 */
export function startEarlyJob<M extends StatsMethod>(method: M, input: MethodInput<M>, key: string): void {
  for (const untaken of early.values()) void desk.call('stats.cancel', { job_id: untaken.jobId }).catch(() => undefined);
  early.clear();
  const jobId = newClientId('job');
  const result = desk.call(method, { ...input, job_id: jobId } as MethodInput<M>);
  result.catch(() => undefined); // the page that takes it shows the error
  early.set(`${method}\u0000${key}`, { jobId, result });
}

/** The job started early for this method and key, once (a later ask starts its own). */
export function takeEarlyJob<M extends StatsMethod>(method: M, key: string): { jobId: string; result: Promise<MethodOutput<M>> } | undefined {
  const name = `${method}\u0000${key}`;
  const job = early.get(name);
  early.delete(name);
  return job as { jobId: string; result: Promise<MethodOutput<M>> } | undefined;
}
