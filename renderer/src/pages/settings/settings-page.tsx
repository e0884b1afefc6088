// Settings: where the data lives, and API keys kept in the system keychain (desktop app only).
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { desk, errorText } from '../../api/desk';
import { hrefFor } from '../../store/route-store';

function KeysSection() {
  const [status, setStatus] = useState<{ available: boolean; names: string[] } | null>(null);
  const [name, setName] = useState('OPENAI_API_KEY');
  const [value, setValue] = useState('');
  const [error, setError] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      setStatus(await desk.call('secrets.status', {}));
    } catch (failure) {
      setError(errorText(failure));
    }
  }, []);
  useEffect(() => void load(), [load]);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await desk.call('secrets.set', { name: name.trim(), value });
      setValue('');
      setError(null);
      await load();
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  const remove = async (key: string) => {
    await desk.call('secrets.delete', { name: key }).catch((failure: unknown) => setError(errorText(failure)));
    await load();
  };

  if (!status) return error ? <p className="error-text" role="alert">{error}</p> : null;
  if (!status.available) {
    return (
      <p className="muted" aria-label="API keys">
        API keys are kept in the system keychain by the desktop app. Here (<code>while-desk serve</code> or the CLI) agents read them from
        environment variables: <code>OPENAI_API_KEY</code>, or the variable named with <code>--api-key-env NAME</code>.
      </p>
    );
  }
  return (
    <>
      <p className="muted">
        An OpenAI-compatible agent uses the key stored under the name its run gives with <code>--api-key-env</code> (default
        <code> OPENAI_API_KEY</code>), when that environment variable is not set. Keys are encrypted by the system keychain and never shown again.
      </p>
      <form className="dropzone" onSubmit={save} aria-label="Store an API key">
        <label className="field">
          Name
          <input type="text" value={name} size={24} onChange={(event) => setName(event.target.value)} />
        </label>
        <label className="field">
          Key
          <input type="password" value={value} size={40} autoComplete="off" onChange={(event) => setValue(event.target.value)} />
        </label>
        <button type="submit" disabled={!name.trim() || !value}>Store in keychain</button>
      </form>
      {error && <p className="error-text" role="alert">{error}</p>}
      {status.names.length > 0 && (
        <ul aria-label="Stored keys">
          {status.names.map((key) => (
            <li key={key}>
              <span className="mono">{key}</span>{' '}
              <button type="button" className="link" onClick={() => remove(key)} aria-label={`Remove ${key}`}>remove</button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

export function SettingsPage() {
  const [dbPath, setDbPath] = useState<string | null>(null);
  useEffect(() => {
    desk.call('app.info', {}).then((info) => setDbPath(info.db_path), () => setDbPath(null));
  }, []);
  return (
    <section className="page">
      <header className="page-head">
        <div>
          <h1>Settings</h1>
        </div>
      </header>
      <h2>Data</h2>
      <p>
        Database: <span className="mono">{dbPath ?? '…'}</span>
        <br />
        <span className="muted">Set another with <code>--db PATH</code> or <code>WHILE_DESK_DB</code>.</span>
      </p>
      <h2>Model folders</h2>
      <p>
        <a href={hrefFor({ page: 'models' })}>GGUF models and the folders searched for them</a>
      </p>
      <h2>API keys</h2>
      <KeysSection />
    </section>
  );
}
