// Runs and datasets: import, and the list of everything stored with row counts, kind and status.
import { useEffect } from 'react';
import { formatCount, formatDate } from '../../components/format';
import { useConnection } from '../../store/connection-store';
import { useDatasets } from '../../store/datasets-store';
import { hrefFor } from '../../store/route-store';
import { ImportPanel } from './import-panel';

export function DatasetsPage() {
  const { datasets, loaded, error, refresh } = useDatasets();
  const connected = useConnection((s) => s.state === 'open');
  useEffect(() => {
    void refresh();
  }, [refresh]);
  return (
    <section className="page">
      <header className="page-head">
        <h1>Runs and datasets</h1>
        <nav className="page-actions">
          <a className="button" href={hrefFor({ page: 'new-run' })}>New run</a>
          <a className="button" href={hrefFor({ page: 'models' })}>Models</a>
          <a className="button" href={hrefFor({ section: 'compare' })}>Compare runs</a>
        </nav>
      </header>
      <ImportPanel />
      {error && connected && <p className="error-text" role="alert">Could not list datasets: {error}</p>}
      {loaded && !error && datasets.length === 0 && <p className="muted empty">No datasets yet. Import a JSONL file of rows, or start a run.</p>}
      {datasets.length > 0 && (
        <table className="plain datasets" aria-label="Datasets">
          <thead>
            <tr>
              <th>Name</th>
              <th>Kind</th>
              <th>Status</th>
              <th className="num">Rows</th>
              <th>Created</th>
              <th>Id</th>
            </tr>
          </thead>
          <tbody>
            {datasets.map((dataset) => (
              <tr key={dataset.id}>
                <td>
                  <a href={hrefFor({ page: 'dataset', id: dataset.id })}>{dataset.name}</a>
                </td>
                <td>{dataset.kind}</td>
                <td>{dataset.kind === 'run' ? <a href={hrefFor({ page: 'run', id: dataset.id })} title="Run progress">{dataset.status}</a> : dataset.status}</td>
                <td className="num">{formatCount(dataset.rows)}</td>
                <td>{formatDate(dataset.created_at)}</td>
                <td className="mono muted">{dataset.id}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
