// One task's rows from both sides, side by side: the reply, the reward and the tool steps of each rollout.
import { useEffect, useState } from 'react';
import { desk, errorText } from '../../api/desk';
import { formatReward } from '../../components/format';
import { RowSteps } from '../rows/row-steps';

type Row = Record<string, unknown>;
const ROLLOUTS_SHOWN = 8;

function Side({ datasetId, task, title }: { datasetId: string; task: string; title: string }) {
  const [rows, setRows] = useState<Row[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    setRows(null);
    desk.call('datasets.taskRows', { id: datasetId, task, limit: ROLLOUTS_SHOWN }).then(
      (found) => live && setRows(found.rows.map((r) => r.row)),
      (failure: unknown) => live && setError(errorText(failure)),
    );
    return () => {
      live = false;
    };
  }, [datasetId, task]);
  return (
    <div className="task-side" aria-label={title}>
      <h4>{title} <span className="muted mono">{datasetId}</span></h4>
      {error && <p className="error-text" role="alert">{error}</p>}
      {!rows && !error && <p className="muted">Loading…</p>}
      {rows && rows.length === 0 && <p className="muted">No rows for this task here.</p>}
      {rows?.map((row, i) => (
        <article key={i} className="task-rollout">
          <header>
            rollout {String(row.rollout_index ?? i)} · reward <strong>{formatReward(row.reward)}</strong>
            {typeof row.judge_status === 'string' && row.judge_status !== 'ok' ? ` · ${row.judge_status}` : ''}
          </header>
          <pre className="text">{String(row.final_text ?? '') || '(empty)'}</pre>
          <RowSteps steps={Array.isArray(row.steps) ? row.steps : []} />
        </article>
      ))}
    </div>
  );
}

export function TaskRows({ task, baseline, candidate, onClose }: { task: string; baseline: string; candidate: string; onClose(): void }) {
  return (
    <section className="task-rows" aria-label={`Rows of ${task}`} data-testid="compare-task-rows">
      <header>
        <h3 className="mono">{task}</h3>
        <button type="button" onClick={onClose}>Close</button>
      </header>
      <div className="task-sides">
        <Side datasetId={baseline} task={task} title="Baseline" />
        <Side datasetId={candidate} task={task} title="Candidate" />
      </div>
    </section>
  );
}
