// The account's datasets on the platform (loaded when asked: listing is a request), each with Pull.
import { useState } from 'react';
import { desk, errorText } from '../../api/desk';

export function RemoteDatasets() {
  const [sets, setSets] = useState<Array<Record<string, unknown>> | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const load = async () => {
    setError(null);
    try {
      setSets(await desk.call('sync.datasets', {}));
    } catch (failure) {
      setError(errorText(failure));
    }
  };
  const pull = async (remoteId: string) => {
    setError(null);
    try {
      const result = await desk.call('sync.pull', { remote_id: remoteId });
      setNote(`Pulled ${remoteId} into ${result.dataset_id} (${result.rows_imported} rows).`);
    } catch (failure) {
      setError(errorText(failure));
    }
  };

  return (
    <section aria-label="Account datasets">
      <h2>On the platform</h2>
      <button type="button" onClick={load}>
        {sets ? 'Refresh' : 'List the account’s datasets'}
      </button>
      {note && <p role="status">{note}</p>}
      {error && (
        <p className="error-text" role="alert">
          {error}
        </p>
      )}
      {sets && sets.length === 0 && <p className="muted">No datasets on the account yet.</p>}
      {sets && sets.length > 0 && (
        <table className="plain" aria-label="Platform datasets">
          <thead>
            <tr>
              <th>Name</th>
              <th>Purpose</th>
              <th className="num">Rows</th>
              <th>Status</th>
              <th>Id</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {sets.map((entry) => (
              <tr key={String(entry.datasetId)}>
                <td>{String(entry.name ?? '')}</td>
                <td>{String(entry.purpose ?? '')}</td>
                <td className="num">{String(entry.rows ?? '')}</td>
                <td>{String(entry.status ?? '')}</td>
                <td className="mono muted">{String(entry.datasetId)}</td>
                <td>
                  <button type="button" className="link" onClick={() => pull(String(entry.datasetId))}>
                    Pull
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
