// One dataset or run: its header, then Rows (table and row view) or Measure.
import { lazy, Suspense, useEffect, useState } from 'react';
import type { DatasetSummary } from '../../../../shared/api/datasets';
import { desk, errorText } from '../../api/desk';
import { formatCount } from '../../components/format';
import { hrefFor } from '../../store/route-store';
import type { DatasetTab } from '../../store/routes';
import { useRows } from '../../store/rows-store';
import { HackScanPanel } from '../measure/hack-scan-panel';
import { MeasurePanel } from '../measure/measure-panel';
import { RowView } from '../rows/row-view';
import { RowsTable } from '../rows/rows-table';
import { DatasetActions } from './dataset-actions';
import { GradePanel } from './grade-panel';

const TrainingPanel = lazy(() => import('../training/training-panel').then((m) => ({ default: m.TrainingPanel })));

export function DatasetPage({ id, tab }: { id: string; tab: DatasetTab }) {
  const [dataset, setDataset] = useState<DatasetSummary | null>(null);
  const [error, setError] = useState<string | null>(null);
  const open = useRows((s) => (s.datasetId === id ? s.open : null));

  useEffect(() => {
    let live = true;
    const load = () =>
      desk.call('datasets.get', { id }).then(
        (found) => live && (setDataset(found), setError(null)),
        (failure: unknown) => live && setError(errorText(failure)),
      );
    void load();
    // The header follows the dataset's version (rows, labels, status); at most once a second while a run grows.
    // The rows table follows the same event itself (rows-store.ts).
    let timer: ReturnType<typeof setTimeout> | null = null;
    const refresh = () => {
      if (timer) return;
      timer = setTimeout(() => {
        timer = null;
        void load();
      }, 1000);
    };
    const stops = [desk.on('rows.changed', (event) => event.dataset_id === id && refresh())];
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
      stops.forEach((stop) => stop());
    };
  }, [id]);

  return (
    <section className="page dataset-page">
      <header className="page-head">
        <div>
          <a className="crumb" href={hrefFor({ page: 'datasets' })}>Runs and datasets</a>
          <h1>{dataset?.name ?? id}</h1>
          {dataset && (
            <p className="muted meta">
              {dataset.kind} · {dataset.status} · {formatCount(dataset.rows)} rows · <span className="mono">{dataset.id}</span>
              {dataset.parent_id && (
                <>
                  {' '}· from <a href={hrefFor({ page: 'dataset', id: dataset.parent_id })}>{dataset.parent_id}</a>
                </>
              )}
            </p>
          )}
        </div>
        {dataset && <DatasetActions dataset={dataset} />}
        <nav className="tabs" aria-label="Dataset views">
          <a href={hrefFor({ page: 'dataset', id, tab: 'rows' })} aria-current={tab === 'rows' ? 'page' : undefined}>Rows</a>
          <a href={hrefFor({ page: 'dataset', id, tab: 'measure' })} aria-current={tab === 'measure' ? 'page' : undefined}>Measure</a>
          <a href={hrefFor({ page: 'dataset', id, tab: 'train' })} aria-current={tab === 'train' ? 'page' : undefined} data-testid="train-link">Export for training</a>
          <a href={hrefFor({ page: 'dataset', id, tab: 'learn' })} aria-current={tab === 'learn' ? 'page' : undefined}>What will it learn?</a>
          <a href={hrefFor({ section: 'label', id })} data-testid="label-link">Label</a>
          <a href={hrefFor({ section: 'sync', id })} data-testid="push-link">Push to While…</a>
        </nav>
      </header>
      {!error && dataset && <GradePanel datasetId={id} />}
      {error && <p className="error-text" role="alert">{error}</p>}
      {!error && tab === 'rows' && (
        <div className={`rows-split${open !== null ? ' with-row' : ''}`}>
          <RowsTable datasetId={id} />
          {open !== null && <RowView datasetId={id} />}
        </div>
      )}
      {!error && tab === 'measure' && <MeasurePanel datasetId={id} />}
      {!error && tab === 'train' && dataset && (
        <Suspense fallback={<p className="muted">Loading…</p>}>
          <TrainingPanel dataset={dataset} />
        </Suspense>
      )}
      {!error && tab === 'learn' && <HackScanPanel datasetId={id} />}
    </section>
  );
}
