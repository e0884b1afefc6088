// pass@1, pass^k and pass@k of a dataset with their intervals, the task count and k, and every note.
import { formatCount } from '../../components/format';
import { configSentences, interval, noteSentences, pct } from './explain';

type Obj = Record<string, unknown>;

function Metric({ name, value, ci, help }: { name: string; value: unknown; ci: unknown; help: string }) {
  return (
    <div className="measure-metric">
      <div className="measure-metric-name">{name}</div>
      <div className="measure-metric-value">{pct(value)}</div>
      <div className="measure-metric-ci muted">{value === null || value === undefined ? 'not measured' : `95%: ${interval(ci)}`}</div>
      <div className="measure-metric-help muted">{help}</div>
    </div>
  );
}

export function PassAtCard({ report }: { report: Obj }) {
  const k = typeof report.k === 'number' ? report.k : 1;
  const notes = noteSentences(report.note);
  const config = configSentences(report.config);
  const nTasks = Number(report.n_groups ?? 0);
  return (
    <section className="measure-card" aria-label="pass at k">
      <h3>Pass rates</h3>
      <p className="measure-sub">
        {formatCount(nTasks)} tasks · {formatCount(Number(report.n_rows ?? 0))} graded rows · k = {k}
        {Number(report.n_groups_at_k) > 0 && <> · {formatCount(Number(report.n_groups_at_k))} tasks with {k} graded tries</>}
        {Number(report.n_groups_imputed) > 0 && <> ({formatCount(Number(report.n_groups_imputed))} short tasks counted by their unanimous result)</>}
      </p>
      <div className="measure-metrics">
        <Metric name="pass@1" value={report.pass_at_1} ci={report.ci95} help="One try: the share of tries that pass, averaged over tasks." />
        <Metric name={`pass^${k}`} value={report.pass_pow_k} ci={report.pass_pow_k_ci95} help={`Reliability: the chance that all ${k} tries of a task pass.`} />
        <Metric name={`pass@${k}`} value={report.pass_at_k} ci={report.pass_at_k_ci95} help={`Coverage: the chance that at least one of ${k} tries passes.`} />
      </div>
      {typeof report.headroom === 'number' && (
        <p className="muted">Headroom: pass@{k} is {pct(report.headroom)} above pass@1 — what picking the best of {k} tries would add.</p>
      )}
      <p className="muted">Intervals are 95% bootstrap intervals over tasks (2,000 draws).</p>
      {notes.length > 0 && (
        <ul className="measure-notes" aria-label="Notes">
          {notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
      {config.length > 0 && (
        <ul className="measure-config muted" aria-label="Run settings">
          {config.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
