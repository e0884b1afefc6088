// One agent: the platform's one-line verdict per behaviour, the eight eval-health checks, the brief, and pass@1 per
// version over time with the noise band (all computed by the engine with shared/platform, as `while-desk verdict`).
import { useCallback, useEffect, useMemo, useState } from 'react';
import type { AgentVerdictReport } from '../../../../shared/api/agents';
import type { RunRow } from '../../../../shared/platform/types';
import { desk, errorText } from '../../api/desk';
import { Plot } from '../measure/plot';
import { versionHistory, versionsOverTime } from './agent-figure';
import { CompareNav } from './sweep-nav';
import './compare.css';
import './sweep.css';

const mark = (ok: boolean | null) => (ok === true ? '✓' : ok === false ? '✗' : '–');

export function AgentVerdictPage({ agent }: { agent: string }) {
  const [behavior, setBehavior] = useState('policy');
  const [version, setVersion] = useState('');
  const [report, setReport] = useState<AgentVerdictReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [promoting, setPromoting] = useState(false);
  const load = useCallback(
    () =>
      desk.call('agents.verdict', { agent, behavior, ...(version ? { version } : {}) }).then(
        (r) => (setReport(r), setError(null)),
        (e: unknown) => setError(errorText(e)),
      ),
    [agent, behavior, version],
  );
  useEffect(() => void load(), [load]);
  const figure = useMemo(() => {
    if (!report) return null;
    const points = versionHistory(report.inputs.runs as RunRow[], report.behavior);
    return versionsOverTime(points, { behavior: report.behavior, serving: report.verdict.serving, floor: report.verdict.noise_floor });
  }, [report]);
  const behaviors = (report?.inputs.dashboard as { behaviors?: string[] } | undefined)?.behaviors ?? [behavior];
  const versions = ((report?.inputs.dashboard as { versions?: Array<{ v: string }> } | undefined)?.versions ?? []).map((v) => v.v);
  const promote = async (v: string) => {
    setPromoting(true);
    try {
      await desk.call('agents.promote', { agent, version: v });
      setVersion('');
      await load();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setPromoting(false);
    }
  };
  return (
    <section className="page compare-page" aria-label={`Agent ${agent}`}>
      <header className="page-head">
        <h1>{agent}</h1>
        {report?.verdict.candidate && report.verdict.candidate !== report.verdict.serving && (
          <div className="page-actions">
            <button type="button" disabled={promoting} onClick={() => void promote(report.verdict.candidate as string)}>Promote {report.verdict.candidate}</button>
          </div>
        )}
      </header>
      <CompareNav current="agents" />
      <div className="compare-options">
        <label>
          Behaviour
          <select value={behavior} onChange={(e) => setBehavior(e.target.value)}>
            {behaviors.map((b) => <option key={b} value={b}>{b}</option>)}
          </select>
        </label>
        <label>
          Candidate
          <select value={version} onChange={(e) => setVersion(e.target.value)}>
            <option value="">newest other than the served one</option>
            {versions.map((v) => <option key={v} value={v}>{v}</option>)}
          </select>
        </label>
      </div>
      {error && <p className="error-text" role="alert">{error}</p>}
      {report && (
        <>
          <p className="compare-headline" data-testid="verdict-line"><strong>{report.verdict.line}</strong></p>
          <p className="muted">
            Serving: {report.verdict.serving ?? 'none promoted'} · noise floor {report.verdict.noise_floor ?? 'not measured (score a version with --runs 3)'} ·
            judge agreement {report.verdict.judge_agreement ?? (report.verdict.graded_by === 'program' ? 'not needed (graded by a program)' : 'unmeasured (label some rows)')}
          </p>
          <h2>Eval health: {report.checks.verdict}</h2>
          <table className="plain" aria-label="Eval health checks">
            <thead><tr><th>Check</th><th></th><th>Value</th><th>To do</th></tr></thead>
            <tbody>
              {report.checks.checks.map((c) => (
                <tr key={c.key} className={c.ok === false ? 'worse' : undefined} title={c.rule}>
                  <td>{c.label}</td><td>{mark(c.ok)}</td><td>{c.value}</td><td>{c.ok === false ? c.action : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h2>Brief</h2>
          <ul>{report.brief.happened.map((h) => <li key={h}>{h}</li>)}</ul>
          <p>{report.brief.means}</p>
          {report.brief.next.length > 0 && <ol aria-label="Next steps">{report.brief.next.map((s) => <li key={s.say}>{s.say}</li>)}</ol>}
          {figure && <Plot data={figure.data} layout={figure.layout} label="pass@1 per version over time with the noise band" height={300} figureName="versions-over-time" />}
        </>
      )}
    </section>
  );
}
