// A sweep's progress arm by arm: each arm's run (and the first arm's noise re-runs) with its rollouts done of its
// total, the run now going, and the sweep's own count; live from sweep.progress while it runs.
import type { SweepDetail, SweepProgress } from '../../../../shared/api/sweeps';
import { formatCount } from '../../components/format';
import { ProgressBar } from '../../components/progress-bar';
import { hrefFor } from '../../store/route-store';

export function SweepArms({ sweep, progress }: { sweep: SweepDetail; progress: SweepProgress | null }) {
  const going = progress?.status === 'running' ? progress : null;
  return (
    <table className="plain" aria-label="Sweep runs" data-testid="sweep-arms">
      <thead><tr><th>Variant</th><th>Scoring</th><th>Run</th><th>Status</th><th className="num">Rollouts</th><th>Progress</th></tr></thead>
      <tbody>
        {sweep.arms.map((a) => {
          const now = going !== null && going.arm === a.arm && going.rerun === a.rerun;
          return (
            <tr key={`${a.arm}:${a.rerun}`} data-testid="sweep-arm" aria-current={now ? 'step' : undefined}>
              <td>{a.label}</td>
              <td>{a.rerun ? `noise re-run ${a.rerun}` : 'arm'}</td>
              <td>{a.run_id ? <a href={hrefFor({ page: 'run', id: a.run_id })}>{a.run_id}</a> : '—'}</td>
              <td>{now && a.status === 'not started' ? 'starting' : a.status}</td>
              <td className="num">{formatCount(a.rows)} / {formatCount(a.expected_rows)}</td>
              <td><ProgressBar value={a.expected_rows ? a.rows / a.expected_rows : 0} label={`${a.label}${a.rerun ? ` noise re-run ${a.rerun}` : ''} progress`} /></td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** The sweep's line: status, rollouts done of total, its shape and noise runs, the arm going now. */
export function SweepProgressLine({ sweep, progress }: { sweep: SweepDetail; progress: SweepProgress | null }) {
  const status = progress?.status ?? sweep.status;
  const done = progress?.done ?? sweep.rows;
  const total = progress?.total ?? sweep.expected_rows;
  const reruns = Math.max(0, sweep.config.noise_runs - 1);
  return (
    <div data-testid="sweep-progress">
      <p>
        <strong data-testid="sweep-status">{status}</strong> · <span data-testid="sweep-done">{formatCount(done)} of {formatCount(total)} rollouts</span> ·{' '}
        {sweep.config.variants.length} variants × {sweep.config.tasks_count} tasks × k={sweep.config.k}, noise runs {sweep.config.noise_runs}
        {reruns > 0 ? ` (the first variant re-run ${reruns} ${reruns === 1 ? 'time' : 'times'})` : ' (no noise floor)'}
        {progress?.label && status === 'running' ? ` · now ${progress.label}${progress.rerun ? ` (noise re-run ${progress.rerun})` : ''}` : ''}
      </p>
      {status === 'running' && <ProgressBar value={total ? done / total : 0} label="Sweep progress" />}
    </div>
  );
}
