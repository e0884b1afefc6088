// "Probe the judge": judge_trust with a judge and probes="all" (stats.judgeTrust in the worker pool), from the
// trust panel. The judge is taken as the grade panel takes it (a program, rules file or LLM judge; a file picked
// with the native dialog in the desktop app, a typed path on the engine's machine in a browser). Each probe shows
// its exploit rate with the Wilson interval, whether it has the power to show anything, and exploitable_by.
import { useState } from 'react';
import { desk, errorText } from '../../api/desk';
import { defaultJudge, JudgeFields, judgeSettingsOf, type JudgeChoice } from '../runs/judge-fields';

type Obj = Record<string, unknown>;
type Phase = { phase: 'idle' } | { phase: 'probing' } | { phase: 'done'; report: Obj } | { phase: 'failed'; message: string };

const pct = (x: unknown) => (typeof x === 'number' ? `${(x * 100).toFixed(1)}%` : '—');
const interval = (ci: unknown) => (Array.isArray(ci) && ci.length === 2 ? `[${pct(ci[0])}, ${pct(ci[1])}]` : '—');

function ProbeRow({ name, entry }: { name: string; entry: Obj }) {
  if (entry.skipped) {
    return (
      <tr data-testid="probe-row" data-probe={name}>
        <td>{name}</td>
        <td colSpan={4} className="muted">skipped: {String(entry.skipped)}</td>
      </tr>
    );
  }
  const lowPower = entry.low_power === true;
  return (
    <tr data-testid="probe-row" data-probe={name} data-flagged={entry.flagged === true || undefined}>
      <td>{name}</td>
      <td className="num" data-testid="probe-rate">{pct(entry.exploit_rate)}</td>
      <td className="num" data-testid="probe-ci">{interval(entry.ci95)}</td>
      <td className="num">{String(entry.denominator ?? 0)}</td>
      <td data-testid="probe-power">
        {entry.flagged ? 'EXPLOITABLE' : lowPower ? `low power: shows only a rate of ${pct(entry.resolves)} or more` : 'no'}
      </td>
    </tr>
  );
}

export function ProbeReport({ report }: { report: Obj }) {
  const probes = (report.probes ?? {}) as Obj;
  const entries = Object.entries((probes.probes ?? {}) as Record<string, Obj>);
  const exploitable = Array.isArray(report.exploitable_by) ? (report.exploitable_by as string[]) : [];
  const notes = Array.isArray(probes.notes) ? (probes.notes as string[]) : [];
  return (
    <div data-testid="probe-report">
      <p role="status" data-testid="probe-exploitable" className={exploitable.length ? 'verdict verdict-fails' : 'verdict'}>
        {exploitable.length ? `Exploitable by: ${exploitable.join(', ')}` : `No probe flags the judge (on ${String(probes.n ?? 0)} rows).`}
      </p>
      {entries.length > 0 && (
        <table className="plain" aria-label="Judge probes">
          <thead>
            <tr><th>Probe</th><th className="num">Rate</th><th className="num">95% interval</th><th className="num">of</th><th>Flagged / power</th></tr>
          </thead>
          <tbody>{entries.map(([name, entry]) => <ProbeRow key={name} name={name} entry={entry} />)}</tbody>
        </table>
      )}
      {notes.length > 0 && (
        <details className="warnings">
          <summary>{notes.length} note{notes.length > 1 ? 's' : ''} on power</summary>
          <ul>{notes.map((note, i) => <li key={i}>{note}</li>)}</ul>
        </details>
      )}
    </div>
  );
}

export function JudgeProbes({ datasetId }: { datasetId: string }) {
  const [open, setOpen] = useState(false);
  const [judge, setJudge] = useState<JudgeChoice>(defaultJudge);
  const [state, setState] = useState<Phase>({ phase: 'idle' });

  const probe = async () => {
    const chosen = judgeSettingsOf(judge);
    if ('problem' in chosen) return setState({ phase: 'failed', message: chosen.problem });
    if (!chosen.settings) return setState({ phase: 'failed', message: 'choose the judge to probe: a program (.mjs), a rules file (.json) or an LLM judge' });
    setState({ phase: 'probing' });
    try {
      const out = await desk.call('stats.judgeTrust', { dataset_id: datasetId, judge: chosen.settings, probes: 'all' });
      setState({ phase: 'done', report: out.report as Obj });
    } catch (failure) {
      setState({ phase: 'failed', message: errorText(failure) });
    }
  };

  if (!open) {
    return (
      <button type="button" data-testid="probe-open" onClick={() => setOpen(true)}>
        Probe the judge…
      </button>
    );
  }
  return (
    <section className="probe-panel" aria-label="Judge probes" aria-busy={state.phase === 'probing' || undefined}>
      <h3>Probe the judge</h3>
      <div className="form">
        <JudgeFields value={judge} onChange={setJudge} />
      </div>
      <div className="row-between">
        <button type="button" className="primary" data-testid="probe-run" disabled={state.phase === 'probing'} onClick={() => void probe()}>
          {state.phase === 'probing' ? 'Probing…' : 'Run the probes'}
        </button>
        <button type="button" onClick={() => setOpen(false)} disabled={state.phase === 'probing'}>Close</button>
      </div>
      {state.phase === 'done' && <ProbeReport report={state.report} />}
      {state.phase === 'failed' && <p className="error-text" role="alert">{state.message}</p>}
    </section>
  );
}
