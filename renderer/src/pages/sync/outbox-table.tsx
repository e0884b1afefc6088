// The outbox: every item with its state (queued, sending, done, failed) and why.
import type { OutboxItemView } from '../../../../shared/api/sync';

function stateText(item: OutboxItemView): string {
  if (item.blocked === 'sign_in') return 'queued: sign in again';
  if (item.blocked === 'billing') return 'queued: billing required';
  if (item.state === 'queued' && item.next_try_at) return `queued: next try ${new Date(item.next_try_at).toLocaleTimeString()}`;
  if (item.state === 'queued' && item.last_error) return 'queued: will retry';
  return item.state;
}

/** `onRetry` tries one failed item again (it may have stopped after failing the same way again and again). */
export function OutboxTable({ items, onRetry }: { items: OutboxItemView[]; onRetry?: (id: number) => void }) {
  if (items.length === 0) return <p className="muted empty">The outbox is empty.</p>;
  return (
    <table className="plain" aria-label="Outbox">
      <thead>
        <tr>
          <th>#</th>
          <th>What</th>
          <th>State</th>
          <th className="num">Tries</th>
          <th>Result or reason</th>
        </tr>
      </thead>
      <tbody>
        {items.map((item) => (
          <tr key={item.id} data-state={item.state}>
            <td className="mono">{item.id}</td>
            <td>{item.summary}</td>
            <td className={item.state === 'failed' ? 'error-text' : undefined}>
              {stateText(item)}
              {item.state === 'failed' && onRetry ? (
                <button type="button" className="link retry-one" onClick={() => onRetry(item.id)} aria-label={`Retry item ${item.id}`}>
                  Retry
                </button>
              ) : null}
            </td>
            <td className="num">{item.attempts}</td>
            <td className={item.state === 'done' ? 'mono' : 'muted'}>{item.state === 'done' ? String(item.result?.datasetId ?? item.result?.run_id ?? '') : (item.last_error ?? '')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
