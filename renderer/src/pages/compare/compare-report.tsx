// The paired reading of two runs: the delta_report headline, its metrics, guards, noise floor and detectable effect,
// then every task side by side. All of it computed in the engine's worker pool.
import { useMemo, useState } from 'react';
import { headlineWord } from '../../../../shared/stats/delta-headline';
import { pairedTaskTable } from '../../../../shared/stats/paired-tasks';
import { cancelJob, useStatsJob, type JobState } from '../measure/use-stats-job';
import { DeltaSummary } from './delta-summary';
import { PairedDifferencesPlot } from './paired-plot';
import { TaskTable } from './task-table';

type Obj = Record<string, unknown>;

function Pending({ state, what }: { state: JobState<unknown>; what: string }) {
  if (state.status === 'failed') return <p className="error-text" role="alert">{what} could not be computed: {state.message}</p>;
  if (state.status !== 'running') return null;
  return (
    <p className="muted" aria-live="polite">
      Computing {what}… <button type="button" className="link" onClick={() => cancelJob(state.jobId)}>Stop</button>
    </p>
  );
}

const split = (text: string) => text.split(',').map((s) => s.trim()).filter(Boolean);

export function CompareReport({ baseline, candidate }: { baseline: string; candidate: string }) {
  const [guards, setGuards] = useState('');
  const [by, setBy] = useState('');
  const deltaInput = useMemo(
    () => ({ before: baseline, after: candidate, target: 'pass_at_1', must_not_regress: split(guards), ...(by.trim() ? { by: by.trim() } : {}) }),
    [baseline, candidate, guards, by],
  );
  const delta = useStatsJob('stats.delta', deltaInput, JSON.stringify(deltaInput));
  const before = useStatsJob('stats.passAt', { dataset_id: baseline, per_task: true }, `${baseline}|per-task`);
  const after = useStatsJob('stats.passAt', { dataset_id: candidate, per_task: true }, `${candidate}|per-task`);
  const table = useMemo(
    () => (before.status === 'done' && after.status === 'done' ? pairedTaskTable(before.value.per_task ?? {}, after.value.per_task ?? {}) : null),
    [before, after],
  );
  const report = delta.status === 'done' ? (delta.value.report as Obj) : null;
  return (
    <div className="compare-report" data-testid="compare-report">
      <form className="compare-options" onSubmit={(e) => e.preventDefault()}>
        <label>
          Must not regress <input value={guards} onChange={(e) => setGuards(e.target.value)} placeholder="marker names, comma separated" />
        </label>
        <label>
          Group by <input value={by} onChange={(e) => setBy(e.target.value)} placeholder="auto (category)" />
        </label>
      </form>
      <Pending state={delta} what="the paired delta" />
      {report && (
        <>
          <h2 className="compare-headline" data-testid="compare-headline" data-verdict={String(report.target_verdict ?? report.headline_verdict)}>
            {headlineWord(report)}
          </h2>
          <DeltaSummary report={report} />
        </>
      )}
      <Pending state={before} what="the baseline's per-task rates" />
      <Pending state={after} what="the candidate's per-task rates" />
      {table && table.n_paired > 0 && <PairedDifferencesPlot table={table} />}
      {table && <TaskTable table={table} baseline={baseline} candidate={candidate} />}
    </div>
  );
}
