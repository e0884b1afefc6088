// One whole row beside the table: prompt, tool steps, reply, reward, judge, markers, lineage. j/k or arrows move, Esc closes.
import { useEffect, useState } from 'react';
import { desk, errorText } from '../../api/desk';
import { formatReward, typingIn } from '../../components/format';
import { JsonView } from '../../components/json-view';
import { useRows } from '../../store/rows-store';
import { RowSteps } from './row-steps';

type Row = Record<string, unknown>;

const JUDGE_KEYS = ['judge_name', 'judge_status', 'reason', 'grader_reason', 'label_source', 'failure_class', 'llm_reward', 'llm_reason'];
const SHOWN_KEYS = new Set(['prompt', 'steps', 'final_text', 'reward', 'markers', 'lineage', 'judge_meta', 'gold_reward', 'gold_kind', 'gold_labels', 'scenario_id', 'rollout_index', 'system_prompt', ...JUDGE_KEYS]);

function Field({ name, children }: { name: string; children: React.ReactNode }) {
  return (
    <>
      <dt>{name}</dt>
      <dd>{children}</dd>
    </>
  );
}

function Verdict({ row }: { row: Row }) {
  const markers = row.markers && typeof row.markers === 'object' ? Object.entries(row.markers as Record<string, unknown>) : [];
  return (
    <section className="row-section" aria-label="Verdict">
      <dl className="facts">
        <Field name="Reward"><strong data-testid="row-reward">{formatReward(row.reward)}</strong></Field>
        {row.gold_reward !== undefined && <Field name="Gold">{String(row.gold_reward)} {row.gold_kind ? `(${String(row.gold_kind)})` : ''}</Field>}
        {JUDGE_KEYS.filter((key) => row[key] !== undefined && row[key] !== null).map((key) => (
          <Field key={key} name={key}>{typeof row[key] === 'string' ? (row[key] as string) : JSON.stringify(row[key])}</Field>
        ))}
      </dl>
      {markers.length > 0 && (
        <table className="plain markers" aria-label="Markers">
          <thead><tr><th>Marker</th><th className="num">Value</th></tr></thead>
          <tbody>
            {markers.map(([name, value]) => (
              <tr key={name}><td>{name}</td><td className="num">{formatReward(value)}</td></tr>
            ))}
          </tbody>
        </table>
      )}
      {row.judge_meta !== undefined && <JsonView label="Judge details (judge_meta)" value={row.judge_meta} open={false} />}
      {Array.isArray(row.gold_labels) && row.gold_labels.length > 0 && <JsonView label="Gold labels" value={row.gold_labels} open={false} />}
    </section>
  );
}

export function RowView({ datasetId }: { datasetId: string }) {
  const open = useRows((s) => s.open);
  const total = useRows((s) => s.total) ?? 0;
  const setOpen = useRows((s) => s.setOpen);
  const ordinal = useRows((s) => (s.open === null ? undefined : s.rowAt(s.open)?.ordinal));
  const [row, setRow] = useState<{ ordinal: number; row: Row } | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (ordinal === undefined) return;
    let live = true;
    desk.call('datasets.row', { id: datasetId, ordinal }).then(
      (found) => live && (setRow(found), setError(null)),
      (failure: unknown) => live && setError(errorText(failure)),
    );
    return () => {
      live = false;
    };
  }, [datasetId, ordinal]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (typingIn(event.target) || event.ctrlKey || event.metaKey || event.altKey || open === null) return;
      if (event.key === 'Escape') setOpen(null);
      else if (event.key === 'j' || event.key === 'ArrowDown') setOpen(Math.min(total - 1, open + 1));
      else if (event.key === 'k' || event.key === 'ArrowUp') setOpen(Math.max(0, open - 1));
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open, total, setOpen]);

  if (open === null) return null;
  const current = row && row.ordinal === ordinal ? row.row : null;
  const rest = current ? Object.fromEntries(Object.entries(current).filter(([key]) => !SHOWN_KEYS.has(key))) : {};
  return (
    <aside className="row-view" aria-label="Row" data-testid="row-view">
      <header className="row-view-head">
        <div>
          <h2>
            Row {ordinal ?? '…'}
            {current?.scenario_id != null && <span className="muted"> · {String(current.scenario_id)}</span>}
            {current?.rollout_index != null && <span className="muted"> · rollout {String(current.rollout_index)}</span>}
          </h2>
          <span className="muted">{open + 1} of {total} in this order</span>
        </div>
        <div className="buttons">
          <button type="button" onClick={() => setOpen(Math.max(0, open - 1))} title="Previous (k)">↑</button>
          <button type="button" onClick={() => setOpen(Math.min(total - 1, open + 1))} title="Next (j)">↓</button>
          <button type="button" onClick={() => setOpen(null)} title="Close (Esc)">Close</button>
        </div>
      </header>
      {error && <p className="error-text" role="alert">{error}</p>}
      {!current && !error && <p className="muted">Loading…</p>}
      {current && (
        <div className="row-view-body">
          <Verdict row={current} />
          {typeof current.system_prompt === 'string' && current.system_prompt && (
            <section className="row-section"><h3>System prompt</h3><pre className="text">{current.system_prompt}</pre></section>
          )}
          <section className="row-section"><h3>Prompt</h3><pre className="text" data-testid="row-prompt">{String(current.prompt ?? '')}</pre></section>
          <RowSteps steps={Array.isArray(current.steps) ? current.steps : []} faults={current.faults && typeof current.faults === 'object' ? (current.faults as Record<string, unknown>) : undefined} />
          <section className="row-section"><h3>Final reply</h3><pre className="text" data-testid="row-reply">{String(current.final_text ?? '') || '(empty)'}</pre></section>
          {current.lineage !== undefined && <JsonView label="Lineage" value={current.lineage} />}
          {Object.keys(rest).length > 0 && <JsonView label="Other fields" value={rest} open={false} />}
        </div>
      )}
    </aside>
  );
}
