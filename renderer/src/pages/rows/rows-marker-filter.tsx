// The rows table's marker filter: the label queue's control (MarkerFilter), its names asked of the engine when the
// person first opens it, not with the first page (on an import the names need every row's markers read once).
import { useState } from 'react';
import type { QueueFilters } from '../../../../shared/api/labels';
import { desk, errorText } from '../../api/desk';
import { MarkerFilter } from '../label/marker-filter';

type Marker = QueueFilters['marker'];

export function RowsMarkerFilter({ datasetId, value, onChange }: { datasetId: string; value: Marker; onChange: (marker: Marker) => void }) {
  const [names, setNames] = useState<{ datasetId: string; list: string[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () => {
    if (names?.datasetId === datasetId) return;
    desk.call('datasets.markerNames', { id: datasetId }).then(
      (reply) => setNames({ datasetId, list: reply.names }),
      (failure: unknown) => setError(errorText(failure)),
    );
  };
  const list = names?.datasetId === datasetId ? names.list : value ? [value.name] : [];
  return (
    <div className="rows-filters" data-testid="rows-marker-filter" onFocus={load} onPointerDown={load}>
      <MarkerFilter names={list} value={value} onChange={onChange} />
      {error && <span className="error-text" role="alert">{error}</span>}
    </div>
  );
}
