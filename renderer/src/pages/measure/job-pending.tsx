// What a statistics job is doing while it has no answer: computing (with Stop), or why it failed.
import { cancelJob, type JobState } from './use-stats-job';

export function JobPending({ state, what }: { state: JobState<unknown>; what: string }) {
  if (state.status === 'failed') return <p className="error-text" role="alert">{what} could not be computed: {state.message}</p>;
  if (state.status !== 'running') return null;
  return (
    <p className="muted measure-pending" aria-live="polite">
      Computing {what}…{' '}
      <button type="button" className="link" onClick={() => cancelJob(state.jobId)}>Stop</button>
    </p>
  );
}
