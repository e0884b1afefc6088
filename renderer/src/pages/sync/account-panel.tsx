// The While account: where the key comes from (masked), tier and limits, sign in with the device code, sign out.
import { useState } from 'react';
import type { AccountStatusView } from '../../../../shared/api/sync';
import { desk, errorText } from '../../api/desk';

interface Props {
  status: AccountStatusView;
  reload(): void;
}

export function AccountPanel({ status, reload }: Props) {
  const [code, setCode] = useState<{ link: string | null; code: string } | null>(null);
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const signIn = async () => {
    setBusy(true);
    setError(null);
    try {
      const begun = await desk.call('sync.loginBegin', {});
      setCode({ link: begun.verification_uri_complete, code: begun.user_code });
      // Poll in short waits so the page stays responsive; the engine honours slow_down and expiry.
      for (;;) {
        const polled = await desk.call('sync.loginPoll', { wait_s: 5 });
        if (polled.state !== 'pending') {
          setMessage(polled.message);
          break;
        }
        if (Date.now() / 1000 > begun.expires_at) {
          setMessage('The code expired. Sign in again for a new one.');
          break;
        }
      }
    } catch (failure) {
      setError(errorText(failure));
    } finally {
      setBusy(false);
      setCode(null);
      reload();
    }
  };
  const signOut = async () => {
    await desk.call('sync.logout', {}).catch((failure: unknown) => setError(errorText(failure)));
    setMessage('Signed out: the saved key was removed.');
    reload();
  };

  return (
    <section aria-label="Account">
      <h2>Account</h2>
      {status.configured ? (
        <dl className="facts">
          <dt>Key</dt>
          <dd className="mono">
            {status.key} <span className="muted">({status.source === 'file' ? status.path : status.source})</span>
          </dd>
          {status.name && (
            <>
              <dt>Name</dt>
              <dd>{status.name}</dd>
            </>
          )}
          <dt>Tier</dt>
          <dd>
            {status.tier ?? 'unknown'}
            {status.trial_expires_at ? ` (trial until ${status.trial_expires_at})` : ''}
          </dd>
          {status.limits && Object.keys(status.limits).length > 0 && (
            <>
              <dt>Limits</dt>
              <dd className="mono">{JSON.stringify(status.limits)}</dd>
            </>
          )}
          {status.usage && Object.keys(status.usage).length > 0 && (
            <>
              <dt>Usage</dt>
              <dd className="mono">{JSON.stringify(status.usage)}</dd>
            </>
          )}
          <dt>Platform</dt>
          <dd className="mono">{status.api_url}</dd>
        </dl>
      ) : (
        <p className="muted">Not signed in. Nothing is sent anywhere until you sign in and push, or turn automatic sync on.</p>
      )}
      {code && (
        <p role="status">
          Open{' '}
          {code.link ? (
            <a href={code.link} target="_blank" rel="noreferrer">
              {code.link}
            </a>
          ) : (
            'the sign-in page'
          )}{' '}
          and press Approve. Code: <strong className="mono">{code.code}</strong>
        </p>
      )}
      <div className="page-actions">
        <button type="button" onClick={signIn} disabled={busy}>
          {busy ? 'Waiting for approval…' : status.configured ? 'Sign in again' : 'Sign in'}
        </button>
        {status.source === 'file' && (
          <button type="button" onClick={signOut} disabled={busy}>
            Sign out
          </button>
        )}
      </div>
      {message && <p className="muted">{message}</p>}
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
