// The paired reading of two runs: the delta_report headline, its metrics, guards, noise floor and detectable effect,
// then every task side by side. All of it computed in the engine's worker pool.
import { useEffect, useMemo, useState } from 'react';
import { headlineWord } from '../../../../shared/stats/delta-headline';
import { useStatsJob } from '../measure/use-stats-job';
import { JobPending } from '../measure/job-pending';
import { compareInput, compareKey } from './compare-input';
import { DeltaSummary } from './delta-summary';
import { PairedDifferencesPlot } from './paired-plot';
import { TaskTable } from './task-table';

type Obj = Record<string, unknown>;

/** The mark's name (test/bench/compare-screen.bench.mjs looks for it by this name). */
const COMPARE_SHOWN_MARK = 'while-desk:compare-shown';

export function CompareReport({ baseline, candidate }: { baseline: string; candidate: string }) {
  const [guards, setGuards] = useState('');
  const [by, setBy] = useState('');
  const deltaInput = useMemo(() => compareInput(baseline, candidate, guards, by), [baseline, candidate, guards, by]);
  // One job: the delta report and the per-task table, on rows the worker reads once (compare_report).
  const delta = useStatsJob('stats.compareReport', deltaInput, compareKey(deltaInput));
  const table = delta.status === 'done' ? delta.value.task_table : null;
  const report = delta.status === 'done' ? (delta.value.report as Obj) : null;
  // A User Timing mark once the reading is on screen: DevTools and Chromium's own traces show it, and
  // test/bench/compare-screen.bench.mjs times a page load with no debugger attached by it.
  useEffect(() => {
    if (report) performance.mark(COMPARE_SHOWN_MARK);
  }, [report]);
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
      <JobPending state={delta} what="the paired delta and the per-task rates" />
      {report && (
        <>
          <h2 className="compare-headline" data-testid="compare-headline" data-verdict={String(report.target_verdict ?? report.headline_verdict)}>
            {headlineWord(report)}
          </h2>
          <DeltaSummary report={report} />
        </>
      )}
      {table && table.n_paired > 0 && <PairedDifferencesPlot table={table} />}
      {table && <TaskTable table={table} baseline={baseline} candidate={candidate} />}
    </div>
  );
}
