// Sync: the account, Push, the outbox with each item's state, Sync now, automatic sync (off until turned on),
// and the account's datasets with Pull.
import { useCallback, useEffect, useState } from 'react';
import type { AccountStatusView, OutboxItemView } from '../../../../shared/api/sync';
import { desk, errorText } from '../../api/desk';
import { AccountPanel } from './account-panel';
import { OutboxTable } from './outbox-table';
import { PushForm } from './push-form';
import { RemoteDatasets } from './remote-datasets';
import { useRoute } from '../../store/route-store';

export function SyncPage() {
  const chosen = useRoute((s) => s.route.id);
  const [status, setStatus] = useState<AccountStatusView | null>(null);
  const [items, setItems] = useState<OutboxItemView[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [syncing, setSyncing] = useState(false);

  const reload = useCallback(async (online = false) => {
    try {
      const [next, outbox] = await Promise.all([desk.call('sync.status', { online }), desk.call('sync.outbox', {})]);
      setStatus(next);
      setItems(outbox);
    } catch (failure) {
      setError(errorText(failure));
    }
  }, []);
  useEffect(() => {
    void reload(true);
    return desk.on('sync.changed', () => void reload(false));
  }, [reload]);

  const syncNow = async (retryFailed: boolean, retry: number[] = []) => {
    setSyncing(true);
    setError(null);
    try {
      const result = await desk.call('sync.now', { retry_failed: retryFailed, retry });
      if (result.blocked) setError(result.blocked.message);
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setSyncing(false);
      void reload(false);
    }
  };
  const setAuto = async (enabled: boolean) => {
    await desk.call('sync.setAuto', { enabled }).catch((failure: unknown) => setError(errorText(failure)));
    void reload(false);
  };

  if (!status) return <section className="page">{error ? <p className="error-text" role="alert">{error}</p> : <p className="muted">Loading…</p>}</section>;
  const box = status.outbox;
  return (
    <section className="page" aria-label="Sync">
      <header className="page-head">
        <h1>Sync</h1>
      </header>
      <AccountPanel status={status} reload={() => void reload(true)} />
      <section aria-label="Push">
        <h2>Push</h2>
        <PushForm key={chosen ?? ''} chosen={chosen} signedIn={status.configured} pushed={() => void reload(false)} />
      </section>
      <section aria-label="Outbox section">
        <h2>Outbox</h2>
        <p className="muted">
          {box.queued} queued{box.blocked ? ` (${box.blocked} waiting for you)` : ''}, {box.sending} sending, {box.done} done, {box.failed} failed. An item
          leaves only when the platform confirmed it.
        </p>
        <div className="page-actions">
          <button type="button" onClick={() => syncNow(false)} disabled={syncing || !status.configured}>
            {syncing ? 'Syncing…' : 'Sync now'}
          </button>
          {box.failed > 0 && (
            <button type="button" onClick={() => syncNow(true)} disabled={syncing || !status.configured}>
              Retry failed
            </button>
          )}
          <label className="field">
            <input type="checkbox" checked={status.auto} onChange={(event) => setAuto(event.target.checked)} /> Automatic sync
          </label>
        </div>
        {error && (
          <p className="error-text" role="alert">
            {error}
          </p>
        )}
        <OutboxTable items={items} onRetry={(id) => void syncNow(false, [id])} />
      </section>
      {status.configured && <RemoteDatasets />}
    </section>
  );
}
