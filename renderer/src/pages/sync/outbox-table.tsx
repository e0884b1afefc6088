// The outbox: every item with its state (queued, sending, done, failed) and why.
import type { OutboxItemView } from '../../../../shared/api/sync';

function stateText(item: OutboxItemView): string {
  if (item.blocked === 'sign_in') return 'queued: sign in again';
  if (item.blocked === 'billing') return 'queued: billing required';
  if (item.state === 'queued' && item.last_error) return 'queued: will retry';
  return item.state;
}

export function OutboxTable({ items }: { items: OutboxItemView[] }) {
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
            <td className={item.state === 'failed' ? 'error-text' : undefined}>{stateText(item)}</td>
            <td className="num">{item.attempts}</td>
            <td className={item.state === 'done' ? 'mono' : 'muted'}>{item.state === 'done' ? String(item.result?.datasetId ?? item.result?.run_id ?? '') : (item.last_error ?? '')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
