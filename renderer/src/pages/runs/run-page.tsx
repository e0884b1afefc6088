// One run: live progress (done/total, rollouts per second, ETA), cancel and resume, rollouts lost, pass@1.
import { useCallback, useEffect, useState } from 'react';
import type { RunDetail, RunProgress } from '../../../../shared/api/runs';
import { desk, errorText } from '../../api/desk';
import { formatCount, formatDate } from '../../components/format';
import { ProgressBar } from '../../components/progress-bar';
import { hrefFor } from '../../store/route-store';

function eta(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '—';
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return minutes < 60 ? `${minutes} min ${Math.ceil(seconds % 60)} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

function byReason(counts: Record<string, number>): string {
  const entries = Object.entries(counts).filter(([, n]) => n > 0);
  return entries.length ? entries.map(([reason, n]) => `${reason} ${n}`).join(', ') : 'none';
}

export function RunPage({ id }: { id: string }) {
  const [run, setRun] = useState<RunDetail | null>(null);
  const [progress, setProgress] = useState<RunProgress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [acting, setActing] = useState(false);

  const load = useCallback(
    () =>
      desk.call('runs.get', { id }).then(
        (found) => (setRun(found), setError(null)),
        (failure: unknown) => setError(errorText(failure)),
      ),
    [id],
  );

  useEffect(() => {
    setProgress(null);
    void load();
    return desk.on('run.progress', (event) => {
      if (event.run_id !== id) return;
      setProgress(event);
      if (event.status !== 'running') void load();
    });
  }, [id, load]);

  const act = async (what: 'runs.cancel' | 'runs.resume') => {
    setActing(true);
    try {
      await desk.call(what, { id });
      await load();
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setActing(false);
    }
  };

  if (error && !run) return <section className="page"><p className="error-text" role="alert">{error}</p></section>;
  if (!run) return <section className="page"><p className="muted">Loading…</p></section>;
  const status = progress?.status ?? run.status;
  const done = progress?.done ?? run.rows;
  const total = progress?.total ?? run.expected_rows;
  const running = status === 'running';
  const resumable = status === 'cancelled' || status === 'interrupted' || status === 'failed';

  return (
    <section className="page">
      <header className="page-head">
        <div>
          <a className="crumb" href={hrefFor({ page: 'datasets' })}>Runs and datasets</a>
          <h1>{run.name}</h1>
          <p className="muted meta">
            {run.agent} · judge {run.judge ?? 'none'} · started {formatDate(run.created_at)} · <span className="mono">{run.id}</span>
          </p>
        </div>
        <div className="page-actions">
          {running && <button type="button" onClick={() => act('runs.cancel')} disabled={acting}>Cancel</button>}
          {resumable && <button type="button" onClick={() => act('runs.resume')} disabled={acting}>Resume</button>}
          <a className="button" href={hrefFor({ page: 'dataset', id: run.id })}>Rows</a>
        </div>
      </header>
      {error && <p className="error-text" role="alert">{error}</p>}
      <div className="run-progress" data-testid="run-progress">
        <div className="row-between">
          <strong className={`status status-${status}`} data-testid="run-status">{status}</strong>
          <span>
            {formatCount(done)} of {formatCount(total)} rollouts
            {running && progress && ` · ${progress.rollouts_per_s.toFixed(1)} per second · ETA ${eta(progress.eta_s)}`}
          </span>
        </div>
        <ProgressBar value={total ? done / total : 0} label="Run progress" />
      </div>
      {(run.error || progress?.error) && <p className="error-text" role="alert">{progress?.error ?? run.error}</p>}
      <dl className="facts">
        <dt>pass@1</dt>
        <dd>{run.pass_at_1 === null ? 'not graded' : run.pass_at_1.toFixed(3)} {run.graded_rows > 0 && <span className="muted">({formatCount(run.graded_rows)} graded rows)</span>}</dd>
        {Object.keys(run.judge_status_counts).length > 0 && (
          <>
            <dt>Judge statuses</dt>
            <dd data-testid="judge-statuses">
              {byReason(run.judge_status_counts)}
              {run.graded_rows === 0 && run.rows > 0 && <span className="error-text"> · no row was graded: the judge failed on every row</span>}
            </dd>
          </>
        )}
        <dt>Rollouts lost</dt>
        <dd>{run.rollouts_lost.lost} ({byReason(run.rollouts_lost.lost_by)})</dd>
        <dt>Re-rolled</dt>
        <dd>{run.rollouts_lost.rerolled} ({byReason(run.rollouts_lost.rerolled_by)})</dd>
        <dt>Tasks × k × runs</dt>
        <dd>{run.config.tasks_count} × {run.config.k} × {run.config.runs}</dd>
        <dt>Seed, concurrency, max turns</dt>
        <dd>{run.config.seed}, {run.config.concurrency}, {run.config.max_turns}</dd>
        {run.finished_at && (
          <>
            <dt>Finished</dt>
            <dd>{formatDate(run.finished_at)}</dd>
          </>
        )}
      </dl>
    </section>
  );
}
