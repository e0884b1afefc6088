// The rows of a dataset, virtualized: only the rows on screen exist in the page; pages of 200 load as you scroll.
import { useVirtualizer } from '@tanstack/react-virtual';
import { memo, useEffect, useRef, type KeyboardEvent } from 'react';
import type { RowListItem, RowSortKey } from '../../../../shared/api/datasets';
import { formatCount, formatReward } from '../../components/format';
import { useRows } from '../../store/rows-store';
import { RowsMarkerFilter } from './rows-marker-filter';

export const ROW_HEIGHT = 28;
const PREFETCH_ROWS = 100;

const COLUMNS: Array<{ label: string; sort?: RowSortKey; className: string }> = [
  { label: '#', sort: 'ordinal', className: 'c-num' },
  { label: 'Task', sort: 'task', className: 'c-task' },
  { label: 'Rollout', className: 'c-roll' },
  { label: 'Reward', sort: 'reward', className: 'c-reward' },
  { label: 'Gold', sort: 'gold', className: 'c-gold' },
  { label: 'Reply len', sort: 'reply_length', className: 'c-len' },
  { label: 'Prompt', className: 'c-text' },
  { label: 'Reply', className: 'c-text' },
];

const RowLine = memo(function RowLine({ row, position, start, selected, onOpen }: {
  row: RowListItem | undefined;
  position: number;
  start: number;
  selected: boolean;
  onOpen: (position: number) => void;
}) {
  const style = { transform: `translateY(${start}px)` };
  if (!row) {
    return (
      <div role="row" className="rows-line loading" style={style} aria-busy="true">
        <div role="cell" className="c-num muted">…</div>
      </div>
    );
  }
  return (
    <div role="row" className={`rows-line${selected ? ' selected' : ''}`} style={style} onClick={() => onOpen(position)} data-ordinal={row.ordinal}>
      <div role="cell" className="c-num">{row.ordinal}</div>
      <div role="cell" className="c-task" title={row.scenario_id ?? ''}>{row.scenario_id ?? '—'}</div>
      <div role="cell" className="c-roll">{row.rollout_index ?? '—'}</div>
      <div role="cell" className={`c-reward${row.reward === null ? ' muted' : row.reward >= 1 ? ' good' : row.reward <= 0 ? ' bad' : ''}`}>{formatReward(row.reward)}</div>
      <div role="cell" className={`c-gold${row.gold_state === 'pass' ? ' good' : row.gold_state === 'fail' ? ' bad' : ''}`}>{row.gold_state === 'none' ? '' : row.gold_state}</div>
      <div role="cell" className="c-len">{formatCount(row.reply_length)}</div>
      <div role="cell" className="c-text">{row.prompt_head}</div>
      <div role="cell" className="c-text">{row.reply_head}</div>
    </div>
  );
});

export function RowsTable({ datasetId }: { datasetId: string }) {
  const { sort, descending, marker, total, error, open, setView, want, rowAt, setOpen } = useRows();
  useRows((s) => s.version); // re-render when a page lands
  const storeDataset = useRows((s) => s.datasetId);
  const scroller = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (storeDataset !== datasetId) setView({ datasetId, sort: 'ordinal', descending: false });
  }, [datasetId, storeDataset, setView]);

  const virtualizer = useVirtualizer({
    count: storeDataset === datasetId ? (total ?? 0) : 0,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    // Render after the scroll event rather than inside it: one long task becomes two short ones.
    useFlushSync: false,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;

  useEffect(() => {
    // A little ahead and behind, so steady scrolling finds the next page already there.
    want(first - PREFETCH_ROWS / 2, last + PREFETCH_ROWS);
  }, [first, last, sort, descending, marker, total, want]);

  useEffect(() => {
    if (open !== null) virtualizer.scrollToIndex(open, { align: 'auto' });
  }, [open, virtualizer]);

  const sortBy = (key: RowSortKey) => {
    const nextDescending = key === sort ? !descending : key === 'reward' || key === 'reply_length';
    setView({ datasetId, sort: key, descending: nextDescending, marker });
    scroller.current?.scrollTo({ top: 0 });
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (open !== null) return; // the row view owns the keys while open
    if (['Enter', 'j', 'ArrowDown'].includes(event.key) && total) {
      event.preventDefault();
      setOpen(first);
    }
  };

  return (
    <div className="rows-table" role="table" aria-label="Rows" aria-rowcount={total ?? undefined}>
      <RowsMarkerFilter datasetId={datasetId} value={marker} onChange={(next) => setView({ datasetId, sort, descending, marker: next })} />
      <div role="row" className="rows-head">
        {COLUMNS.map((column) => (
          <div
            key={column.label}
            role="columnheader"
            className={column.className}
            aria-sort={column.sort && column.sort === sort ? (descending ? 'descending' : 'ascending') : undefined}
          >
            {column.sort ? (
              <button type="button" className="sort" onClick={() => sortBy(column.sort!)}>
                {column.label}
                {column.sort === sort ? (descending ? ' ▼' : ' ▲') : ''}
              </button>
            ) : (
              column.label
            )}
          </div>
        ))}
      </div>
      {error && <p className="error-text" role="alert">Could not load rows: {error}</p>}
      {total === 0 && <p className="muted empty">{marker ? 'No row has that marker at that value.' : 'This dataset has no rows.'}</p>}
      <div className="rows-body" ref={scroller} tabIndex={0} onKeyDown={onKeyDown} data-testid="rows-scroller">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {items.map((item) => (
            <RowLine key={item.index} row={rowAt(item.index)} position={item.index} start={item.start} selected={item.index === open} onOpen={setOpen} />
          ))}
        </div>
      </div>
      <div className="rows-foot muted">
        {total === null ? 'Loading…' : `${formatCount(total)} rows`} · click a row to open it · j/k to move, Esc to close
      </div>
    </div>
  );
}
