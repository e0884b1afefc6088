// Export and Delete on a dataset's page. Delete asks first; a dataset with graded copies is refused by the engine
// with a message naming them, shown here with the choice to delete the copies too.
import { useState } from 'react';
import type { DatasetSummary } from '../../../../shared/api/datasets';
import { desk, errorText } from '../../api/desk';
import { hrefFor, useRoute } from '../../store/route-store';
import { exportDataset } from './export-dataset';

export function DatasetActions({ dataset }: { dataset: DatasetSummary }) {
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const go = useRoute((s) => s.go);

  const runExport = async () => {
    setBusy(true);
    setNote('exporting…');
    try {
      setNote(await exportDataset(desk, dataset.id, dataset.name, (rows) => setNote(`exporting… ${rows} rows`)));
    } catch (error) {
      setNote(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  const runDelete = async (withCopies: boolean) => {
    if (!withCopies && !window.confirm(`Delete "${dataset.name}" (${dataset.rows} rows) and its labels? This cannot be undone.`)) return;
    setBusy(true);
    try {
      await desk.call('datasets.delete', { id: dataset.id, with_copies: withCopies });
      go(hrefFor({ page: 'datasets' }));
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'conflict') setRefusal(errorText(error));
      else setNote(errorText(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="dataset-actions">
      <button type="button" onClick={() => void runExport()} disabled={busy}>Export</button>
      <button type="button" onClick={() => void runDelete(false)} disabled={busy}>Delete</button>
      {note && <span className="muted" role="status">{note}</span>}
      {refusal && (
        <p className="error-text" role="alert">
          {refusal}{' '}
          <button type="button" onClick={() => void runDelete(true)} disabled={busy}>Delete with its copies</button>{' '}
          <button type="button" className="link" onClick={() => setRefusal(null)}>Keep</button>
        </p>
      )}
    </div>
  );
}
