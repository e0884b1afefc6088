// The curriculum: trainable tasks by tier, retired, not ready, the schedule and the count in the band (spec 6).
import { useMemo, useState } from 'react';
import { formatCount } from '../../components/format';
import { pct } from './explain';
import { Plot } from './plot';

type Obj = Record<string, unknown>;
type TaskStat = { task_id: string; prompt: string; n: number; pass_rate: number };

const SHOWN = 200;
const list = (value: unknown): TaskStat[] => (Array.isArray(value) ? (value as TaskStat[]) : []);

function TaskList({ title, tasks, total, open = false }: { title: string; tasks: TaskStat[]; total: number; open?: boolean }) {
  // Rendered only once opened: closed lists cost nothing.
  const [shown, setShown] = useState(open && tasks.length > 0);
  return (
    <details className="measure-tasks" open={shown} onToggle={(e) => setShown(e.currentTarget.open)}>
      <summary>
        {title} <span className="muted">({formatCount(total)})</span>
      </summary>
      {!shown ? null : tasks.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ol>
          {tasks.slice(0, SHOWN).map((task) => (
            <li key={task.task_id} title={task.prompt}>
              <span className="mono">{task.task_id}</span> <span className="muted">{pct(task.pass_rate, 0)} of {task.n}</span>
            </li>
          ))}
          {total > Math.min(SHOWN, tasks.length) && <li className="muted">… and {formatCount(total - Math.min(SHOWN, tasks.length))} more</li>}
        </ol>
      )}
    </details>
  );
}

export function CurriculumPanel({ report, tierSizes, listLimit }: { report: Obj; tierSizes?: number[]; listLimit?: number }) {
  const tiers = (Array.isArray(report.tiers) ? report.tiers : []) as TaskStat[][];
  const tierSize = (i: number) => tierSizes?.[i] ?? tiers[i].length;
  const n = (key: string) => Number(report[key] ?? 0);
  const t = (report.thresholds ?? {}) as Obj;
  const band = Array.isArray(t.band) ? (t.band as number[]) : [0.2, 0.8];
  const retired = list(report.retired);
  const notReady = list(report.not_ready);
  const thin = list(report.thin);
  const data = useMemo(() => {
    const names = [...tiers.map((_, i) => `Tier ${i + 1}`), 'Retired', 'Not ready', 'Too few tries'];
    const counts = [...tiers.map((_, i) => tierSize(i)), n('n_solved'), n('n_not_ready'), n('n_thin')];
    const colors = [...tiers.map(() => '#2f5fd0'), '#1d7a3a', '#b42318', '#6a737d'];
    return [{ type: 'bar', x: names, y: counts, marker: { color: colors }, hovertemplate: '%{x}: %{y} tasks<extra></extra>' }];
    // the report and the tier sizes change together
  }, [report, tierSizes]);
  const layout = useMemo(() => ({ yaxis: { title: { text: 'tasks' }, rangemode: 'tozero' }, showlegend: false }), []);
  const schedule = Array.isArray(report.schedule) ? (report.schedule as string[]) : [];
  return (
    <section className="measure-card" aria-label="Curriculum">
      <h3>Curriculum</h3>
      <p className="measure-sub">
        {formatCount(Number(report.n_tasks ?? 0))} tasks: {formatCount(Number(report.n_trainable ?? 0))} trainable,{' '}
        {formatCount(Number(report.n_solved ?? 0))} retired as solved (above {pct(t.solved, 0)}), {formatCount(Number(report.n_not_ready ?? 0))} not ready
        (below {pct(t.floor, 0)}), {formatCount(Number(report.n_thin ?? 0))} with fewer than {String(t.min_rollouts ?? 2)} graded tries.
      </p>
      <p>
        <strong>{formatCount(Number(report.n_in_band ?? 0))}</strong> trainable tasks pass between {pct(band[0], 0)} and {pct(band[1], 0)} of the time — the
        band where training has the most to learn from.
      </p>
      <Plot data={data} layout={layout} label="Tasks by tier and state" height={240} />
      <div className="measure-columns">
        {tiers.map((tier, i) => (
          <TaskList key={i} title={`Tier ${i + 1}${i === 0 ? ' (easiest trainable)' : ''}`} tasks={tier} total={tierSize(i)} open={i === 0} />
        ))}
        <TaskList title="Retired (solved)" tasks={retired} total={n('n_solved')} />
        <TaskList title="Not ready (too hard for now)" tasks={notReady} total={n('n_not_ready')} />
        <TaskList title="Too few graded tries" tasks={thin} total={n('n_thin')} />
      </div>
      <details className="measure-tasks">
        <summary>
          Schedule <span className="muted">({formatCount(n('n_trainable'))} tasks, highest pass rate first)</span>
        </summary>
        <p className="mono measure-schedule">
          {schedule.length ? schedule.join(' → ') : 'Nothing to schedule.'}
          {listLimit !== undefined && n('n_trainable') > schedule.length && ` → … ${formatCount(n('n_trainable') - schedule.length)} more`}
        </p>
      </details>
    </section>
  );
}
