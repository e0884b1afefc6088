// Runs one statistics job through the API (never here on the UI thread) and cancels it when no longer wanted.
import { startTransition, useEffect, useState } from 'react';
import type { MethodInput, MethodName, MethodOutput } from '../../../../shared/api/index';
import { desk, errorText } from '../../api/desk';
import { newClientId } from '../../api/ids';
import { takeEarlyJob } from './early-jobs';

export type JobState<T> = { status: 'idle' } | { status: 'running'; jobId: string } | { status: 'done'; value: T } | { status: 'failed'; message: string };

type StatsMethod = Extract<MethodName, `stats.${string}`>;

/** Starts `method(input)` whenever `key` changes (null = do not run); a superseded or abandoned job is cancelled. */
export function useStatsJob<M extends StatsMethod>(method: M, input: MethodInput<M> | null, key: string | null): JobState<MethodOutput<M>> {
  const [state, setState] = useState<JobState<MethodOutput<M>>>({ status: 'idle' });
  useEffect(() => {
    if (key === null || input === null) {
      setState({ status: 'idle' });
      return;
    }
    // The job the window started for its opening address, when this is it (early-jobs.ts).
    const started = takeEarlyJob(method, key);
    const jobId = started?.jobId ?? newClientId('job');
    let live = true;
    setState({ status: 'running', jobId });
    (started?.result ?? desk.call(method, { ...input, job_id: jobId } as MethodInput<M>)).then(
      // A report can be large (the compare screen's: 25,000 tasks): drawn as a transition, React yields to the
      // browser every few milliseconds instead of holding the page for one long task.
      (value) => live && startTransition(() => setState({ status: 'done', value })),
      (error: unknown) => {
        if (!live) return;
        const cancelled = typeof error === 'object' && error !== null && (error as { code?: string }).code === 'cancelled';
        setState(cancelled ? { status: 'idle' } : { status: 'failed', message: errorText(error) });
      },
    );
    return () => {
      live = false;
      void desk.call('stats.cancel', { job_id: jobId }).catch(() => undefined);
    };
    // `key` stands for the input: a new object with the same key does not restart the job.
  }, [method, key]);
  return state;
}

/** Cancels a running job by hand (the Stop button). */
export function cancelJob(jobId: string): void {
  void desk.call('stats.cancel', { job_id: jobId }).catch(() => undefined);
}
