// One sweep: live progress per arm, Cancel and Resume, then the ranked table (pass@1 ±, asks, graded rows, markers), the noise floor,
// the winner line and the sweep dots grouped by prompt and by model.
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { SweepDetail, SweepProgress } from '../../../../shared/api/sweeps';
import { desk, errorText } from '../../api/desk';
import { formatCount } from '../../components/format';
import { hrefFor } from '../../store/route-store';
import { Plot } from '../measure/plot';
import { CompareNav } from './sweep-nav';
import { sweepDots } from './sweep-figure';
import { SweepArms, SweepProgressLine } from './sweep-progress';
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

const RELOAD_EVERY_MS = 500;

export function SweepPage({ id }: { id: string }) {
  const [sweep, setSweep] = useState<SweepDetail | null>(null);
  const [progress, setProgress] = useState<SweepProgress | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [acting, setActing] = useState<'cancel' | 'resume' | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const load = useCallback(() => desk.call('sweeps.get', { id }).then((s) => (setSweep(s), setError(null)), (e: unknown) => setError(errorText(e))), [id]);
  useEffect(() => {
    setProgress(null);
    void load();
    // The arms' row counts come from sweeps.get: reloaded a couple of times a second while progress flows, and at the end.
    let pending: ReturnType<typeof setTimeout> | null = null;
    const off = desk.on('sweep.progress', (event) => {
      if (event.sweep_id !== id) return;
      setProgress(event);
      if (event.status !== 'running') {
        if (pending) clearTimeout(pending);
        pending = null;
        void load();
      } else if (!pending) pending = setTimeout(() => ((pending = null), void load()), RELOAD_EVERY_MS);
    });
    return () => {
      off();
      if (pending) clearTimeout(pending);
    };
  }, [id, load]);
  const figure = useMemo(() => (sweep?.report ? sweepDots(sweep.report) : null), [sweep]);
  const act = async (what: 'cancel' | 'resume') => {
    setActing(what);
    try {
      const outcome = what === 'cancel' ? await desk.call('sweeps.cancel', { id }) : await desk.call('sweeps.resume', { id });
      setNote(outcome.message);
      if (what === 'resume') setProgress(null);
      await load();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setActing(null);
    }
  };
  if (error && !sweep) return <section className="page"><p className="error-text" role="alert">{error}</p></section>;
  if (!sweep) return <section className="page"><p className="muted">Loading…</p></section>;
  // A progress event newer than the last load wins; after a resume, the reload's status until events flow.
  const status = progress?.status ?? sweep.status;
  const resumable = status === 'interrupted' || status === 'cancelled' || status === 'failed';
  return (
    <section className="page compare-page" aria-label={`Sweep ${sweep.name}`}>
      <header className="page-head">
        <h1>{sweep.name}</h1>
        <div className="page-actions">
          {status === 'running' && (
            <button type="button" data-testid="cancel-sweep" disabled={acting !== null} onClick={() => void act('cancel')}>{acting === 'cancel' ? 'Cancelling…' : 'Cancel'}</button>
          )}
          {resumable && (
            <button type="button" data-testid="resume-sweep" disabled={acting !== null} onClick={() => void act('resume')}>{acting === 'resume' ? 'Resuming…' : 'Resume'}</button>
          )}
        </div>
      </header>
      <CompareNav current="sweeps" />
      <SweepProgressLine sweep={sweep} progress={progress} />
      {note && <p className="muted" data-testid="sweep-note">{note}</p>}
      {error && <p className="error-text" role="alert">{error}</p>}
      {sweep.error && <p className="error-text" role="alert">{sweep.error}</p>}
      {sweep.report && figure && (
        <>
          <RankedTable report={sweep.report} />
          <pre className="sweep-text" aria-label="Sweep report">{sweep.report.text}</pre>
          <Plot data={figure.data} layout={figure.layout} label="Sweep dots grouped by prompt and by model, with their intervals" height={320} figureName="sweep-dots" />
        </>
      )}
      {sweep.report ? (
        <details>
          <summary>Runs ({sweep.arms.length})</summary>
          <SweepArms sweep={sweep} progress={progress} />
        </details>
      ) : (
        <SweepArms sweep={sweep} progress={progress} />
      )}
    </section>
  );
}
