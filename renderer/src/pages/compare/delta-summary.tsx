// The numbers of a delta_report: the target with its interval, each metric as a gain, guards, noise floor, what the eval can detect.
import { formatReward } from '../../components/format';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown, digits = 3) => (typeof v === 'number' ? v.toFixed(digits) : '—');
const signed = (v: unknown) => (typeof v === 'number' ? `${v >= 0 ? '+' : ''}${v.toFixed(3)}` : '—');
const interval = (v: unknown) => (Array.isArray(v) && v.length === 2 ? `[${num(v[0])}, ${num(v[1])}]` : '—');
const names = (v: unknown) => (Array.isArray(v) && v.length ? v.join(', ') : 'none');

export function DeltaSummary({ report }: { report: Obj }) {
  const metrics = isObj(report.metrics) ? Object.entries(report.metrics) : [];
  const warnings = Array.isArray(report.warnings) ? (report.warnings as unknown[]).filter((w): w is string => typeof w === 'string') : [];
  return (
    <section className="delta-summary" aria-label="Paired delta">
      <dl className="facts">
        <dt>Target</dt>
        <dd>
          {String(report.target ?? 'none')}: <strong data-testid="compare-target-delta">{signed(report.target_delta)}</strong> (95% {interval(report.target_ci95)})
        </dd>
        <dt>Tasks</dt>
        <dd>{String(report.n_paired_tasks)} paired, {String(report.n_unpaired_tasks)} unpaired</dd>
        <dt>Noise floor</dt>
        <dd>
          {typeof report.noise_band === 'number'
            ? `±${num(report.noise_band)} (${String(report.noise_rule)}; run_std ${num(report.run_std, 4)} from ${String(report.run_std_source)})`
            : 'not measured: re-run each side (--runs 3) to know the eval noise'}
        </dd>
        <dt>Can detect</dt>
        <dd>
          {typeof report.detectable_effect === 'number' ? `about ${signed(report.detectable_effect)} with these tasks` : '—'}
          {typeof report.tasks_needed === 'number' ? `; this delta needs about ${report.tasks_needed} tasks` : ''}
        </dd>
        <dt>Guards</dt>
        <dd>Regressions: {names(report.regressions)}. Slipped: {names(report.slipped)}. Improved: {names(report.improved)}.</dd>
      </dl>
      <table className="plain" aria-label="Metrics">
        <thead>
          <tr><th>Metric</th><th className="num">Baseline</th><th className="num">Candidate</th><th className="num">Delta</th><th>95% interval</th><th>As a gain</th></tr>
        </thead>
        <tbody>
          {metrics.map(([name, m]) => {
            const metric = isObj(m) ? m : {};
            return (
              <tr key={name} className={metric.gain_verdict === 'b_better' ? 'better' : metric.gain_verdict === 'a_better' ? 'worse' : undefined}>
                <td>{name}</td>
                <td className="num">{formatReward(metric.mean_a)}</td>
                <td className="num">{formatReward(metric.mean_b)}</td>
                <td className="num">{signed(metric.delta)}</td>
                <td>{interval(metric.ci95)}</td>
                <td>{String(metric.gain_verdict ?? metric.verdict ?? '')}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {warnings.length > 0 && (
        <ul className="warnings" aria-label="Warnings">
          {warnings.map((w) => <li key={w}>{w}</li>)}
        </ul>
      )}
    </section>
  );
}
