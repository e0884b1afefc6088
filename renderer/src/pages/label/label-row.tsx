// The row being labeled: prompt, tool steps (faults marked, long ones folded), the reply; the judge's verdict only
// once asked for (v), so it does not anchor the person. The element carries data-row-key and data-label.
import { formatReward } from '../../components/format';
import { RowSteps } from '../rows/row-steps';
import type { QueueItem } from '../../../../shared/api/labels';

type Row = Record<string, unknown>;

const JUDGE_KEYS = ['judge_name', 'judge_status', 'reason', 'failure_class'];

function JudgeVerdict({ row, shown }: { row: Row; shown: boolean }) {
  if (!shown) return <p className="muted judge-hidden">The judge&apos;s verdict is hidden until you ask for it (v).</p>;
  return (
    <section className="row-section judge-verdict" aria-label="Judge verdict" data-testid="judge-verdict">
      <dl className="facts">
        <dt>Judge reward</dt>
        <dd><strong>{formatReward(row.reward)}</strong></dd>
        {JUDGE_KEYS.filter((key) => row[key] !== undefined && row[key] !== null).map((key) => (
          <div key={key} className="fact">
            <dt>{key}</dt>
            <dd>{typeof row[key] === 'string' ? (row[key] as string) : JSON.stringify(row[key])}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

export function LabelRow({ item, row, position, total, verdictShown }: { item: QueueItem; row: Row | undefined; position: number; total: number; verdictShown: boolean }) {
  const mine = item.my_label === null ? '' : String(item.my_label);
  const faults = row?.faults && typeof row.faults === 'object' ? (row.faults as Record<string, unknown>) : undefined;
  return (
    <article className="label-row" data-testid="label-row" data-row-key={item.row_key} data-label={mine} aria-label={`Row ${item.row_key}`} aria-busy={row ? undefined : true}>
      <header className="label-row-head">
        <h2>
          <span className="mono">{item.row_key}</span>
          {item.scenario_id !== null && <span className="muted"> · task {item.scenario_id}</span>}
        </h2>
        <span className="muted">{position + 1} of {total}{item.why ? ` · ${item.why}` : ''}</span>
        <span className={`my-label my-label-${mine || 'none'}`} aria-live="polite" data-testid="my-label">
          {mine === '1' ? 'You: pass' : mine === '0' ? 'You: fail' : 'Not labeled by you'}
        </span>
      </header>
      {!row && <p className="muted">Loading…</p>}
      {row && (
        <div className="label-row-body">
          <section className="row-section"><h3>Prompt</h3><pre className="text" data-testid="label-prompt">{String(row.prompt ?? '')}</pre></section>
          <RowSteps steps={Array.isArray(row.steps) ? row.steps : []} faults={faults} />
          <section className="row-section"><h3>Reply</h3><pre className="text" data-testid="label-reply">{String(row.final_text ?? '') || '(empty)'}</pre></section>
          <JudgeVerdict row={row} shown={verdictShown} />
        </div>
      )}
    </article>
  );
}
