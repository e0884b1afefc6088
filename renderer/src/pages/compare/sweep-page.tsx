// One sweep: live progress per arm, then the ranked table (pass@1 ±, asks, graded rows, markers), the noise floor,
// the winner line and the sweep dots grouped by prompt and by model.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { SweepDetail, SweepProgress } from '../../../../shared/api/sweeps';
import { desk, errorText } from '../../api/desk';
import { formatCount } from '../../components/format';
import { ProgressBar } from '../../components/progress-bar';
import { hrefFor } from '../../store/route-store';
import { Plot } from '../measure/plot';
import { CompareNav } from './sweep-nav';
import { sweepDots } from './sweep-figure';
import './compare.css';
import './sweep.css';

function RankedTable({ report }: { report: NonNullable<SweepDetail['report']> }) {
  const markers = [...new Set(report.variants.flatMap((v) => Object.keys(v.scores)).filter((k) => k !== report.behavior))];
  return (
    <table className="plain" aria-label="Ranked variants">
      <thead>
        <tr>
          <th>Variant</th><th>Model</th><th>Harness</th><th>pass@1</th><th>±</th><th>Asks</th><th>Graded</th>
          {markers.map((m) => <th key={m}>{m}</th>)}
        </tr>
      </thead>
      <tbody>
        {report.variants.map((v) => {
          const [points, ci, asks] = v.scores[report.behavior];
          return (
            <tr key={v.label} className={report.best === v.label ? 'better' : undefined}>
              <td>{v.run ? <a href={hrefFor({ page: 'run', id: v.run })}>{v.label}</a> : v.label}</td>
              <td>{v.model ?? '—'}</td>
              <td><code>{v.harness}</code></td>
              <td>{points.toFixed(1)}</td>
              <td>{ci.toFixed(1)}</td>
              <td>{asks}</td>
              <td>{formatCount(v.graded_rows)}</td>
              {markers.map((m) => <td key={m}>{v.scores[m] ? `${v.scores[m][0].toFixed(1)} ± ${v.scores[m][1].toFixed(1)}` : '—'}</td>)}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

export function SweepPage({ id }: { id: string }) {
  const [sweep, setSweep] = useState<SweepDetail | null>(null);
  const [progress, setProgress] = useState<SweepProgress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => desk.call('sweeps.get', { id }).then((s) => (setSweep(s), setError(null)), (e: unknown) => setError(errorText(e))), [id]);
  useEffect(() => {
    setProgress(null);
    void load();
    return desk.on('sweep.progress', (event) => {
      if (event.sweep_id !== id) return;
      setProgress(event);
      if (event.status !== 'running') void load();
    });
  }, [id, load]);
  const figure = useMemo(() => (sweep?.report ? sweepDots(sweep.report) : null), [sweep]);
  const resume = async () => {
    try {
      await desk.call('sweeps.resume', { id });
      await load();
    } catch (e) {
      setError(errorText(e));
    }
  };
  if (error && !sweep) return <section className="page"><p className="error-text" role="alert">{error}</p></section>;
  if (!sweep) return <section className="page"><p className="muted">Loading…</p></section>;
  const status = progress?.status ?? sweep.status;
  const done = progress?.done ?? sweep.rows;
  const total = progress?.total ?? sweep.expected_rows;
  return (
    <section className="page compare-page" aria-label={`Sweep ${sweep.name}`}>
      <header className="page-head">
        <h1>{sweep.name}</h1>
        {(status === 'interrupted' || status === 'failed') && <div className="page-actions"><button type="button" onClick={() => void resume()}>Resume</button></div>}
      </header>
      <CompareNav current="sweeps" />
      <p>
        <strong data-testid="sweep-status">{status}</strong> · {formatCount(done)} of {formatCount(total)} rollouts · {sweep.config.variants.length} variants ×{' '}
        {sweep.config.tasks_count} tasks × k={sweep.config.k}, noise runs {sweep.config.noise_runs}
        {progress?.label && status === 'running' ? ` · now ${progress.label}${progress.rerun ? ` (noise re-run ${progress.rerun})` : ''}` : ''}
      </p>
      {status === 'running' && <ProgressBar value={total ? done / total : 0} label="Sweep progress" />}
      {sweep.error && <p className="error-text" role="alert">{sweep.error}</p>}
      {sweep.report && figure && (
        <>
          <RankedTable report={sweep.report} />
          <pre className="sweep-text" aria-label="Sweep report">{sweep.report.text}</pre>
          <Plot data={figure.data} layout={figure.layout} label="Sweep dots grouped by prompt and by model, with their intervals" height={320} figureName="sweep-dots" />
        </>
      )}
      <details>
        <summary>Runs ({sweep.arms.length})</summary>
        <table className="plain" aria-label="Sweep runs">
          <thead><tr><th>Variant</th><th>Scoring</th><th>Run</th><th>Status</th><th>Rows</th></tr></thead>
          <tbody>
            {sweep.arms.map((a) => (
              <tr key={`${a.arm}:${a.rerun}`}>
                <td>{a.label}</td>
                <td>{a.rerun ? `noise re-run ${a.rerun}` : 'arm'}</td>
                <td>{a.run_id ? <a href={hrefFor({ page: 'run', id: a.run_id })}>{a.run_id}</a> : '—'}</td>
                <td>{a.status}</td>
                <td>{formatCount(a.rows)} / {formatCount(a.expected_rows)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </section>
  );
}
