// An outbox item as the API shows it: its state and why, and one line saying what it sends.
import type { OutboxItemView } from '../../shared/api/sync';
import type { OutboxItem } from '../rows/outbox';

function summary(item: OutboxItem): string {
  const p = item.payload;
  if (item.kind === 'dataset.push') {
    const extras = [p.purpose, p.holdout ? `holdout ${String(p.holdout)}` : undefined, p.agent ? `agent ${String(p.agent)}` : undefined].filter(Boolean);
    return `dataset ${String(p.dataset_id)} as "${String(p.name)}"${extras.length ? ` (${extras.join(', ')})` : ''}`;
  }
  if (item.kind === 'run.results') return `results of ${String(p.dataset_id)} to agent ${String(p.agent)} as ${String(p.version)}`;
  return item.kind;
}

export function outboxView(item: OutboxItem): OutboxItemView {
  return {
    id: item.id,
    kind: item.kind,
    dataset_id: item.datasetId,
    state: item.state,
    blocked: item.blocked,
    attempts: item.attempts,
    last_error: item.lastError,
    same_failures: item.failureStreak,
    next_try_at: item.nextTryAt,
    created_at: item.createdAt,
    updated_at: item.updatedAt,
    summary: summary(item),
    result: item.result,
  };
}
