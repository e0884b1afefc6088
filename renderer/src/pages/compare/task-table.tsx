// Every task paired: baseline against candidate, green or red, sorted by regression, filterable; a click opens both sides.
import { useVirtualizer } from '@tanstack/react-virtual';
import { useMemo, useRef, useState } from 'react';
import type { PairedTask, PairedTaskTable } from '../../../../shared/stats/paired-tasks';
import { formatReward } from '../../components/format';
import { TaskRows } from './task-rows';

type SortKey = 'regression' | 'task' | 'baseline' | 'candidate';
const ROW_HEIGHT = 30;

const SORTS: Record<SortKey, ((a: PairedTask, b: PairedTask) => number) | null> = {
  regression: null, // the table's own order
  task: (a, b) => (a.task < b.task ? -1 : a.task > b.task ? 1 : 0),
  baseline: (a, b) => (a.baseline ?? -1) - (b.baseline ?? -1),
  candidate: (a, b) => (a.candidate ?? -1) - (b.candidate ?? -1),
};

const signed = (v: number | null) => (v === null ? '—' : `${v >= 0 ? '+' : ''}${v.toFixed(3)}`);

export function TaskTable({ table, baseline, candidate }: { table: PairedTaskTable; baseline: string; candidate: string }) {
  const [filter, setFilter] = useState('');
  const [only, setOnly] = useState<'all' | 'regressed' | 'improved' | 'moved'>('all');
  const [sort, setSort] = useState<SortKey>('regression');
  const [open, setOpen] = useState<string | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    const kept = table.tasks.filter(
      (t) =>
        (!needle || t.task.toLowerCase().includes(needle)) &&
        (only === 'all' || (only === 'moved' ? t.status === 'regressed' || t.status === 'improved' : t.status === only)),
    );
    const compare = SORTS[sort];
    return compare ? [...kept].sort(compare) : kept;
  }, [table, filter, only, sort]);
  const virtualizer = useVirtualizer({ count: shown.length, getScrollElement: () => scroller.current, estimateSize: () => ROW_HEIGHT, overscan: 10, useFlushSync: false });
  return (
    <section className="task-table" aria-label="Tasks, paired">
      <h3>
        Per task: {table.n_paired} paired · <span className="worse">{table.n_regressed} regressed</span> · <span className="better">{table.n_improved} improved</span> ·{' '}
        {table.n_same} unchanged{table.n_only_baseline + table.n_only_candidate > 0 ? ` · ${table.n_only_baseline + table.n_only_candidate} on one side only` : ''}
      </h3>
      <div className="task-table-controls">
        <input value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="filter tasks" aria-label="Filter tasks" />
        <select value={only} onChange={(e) => setOnly(e.target.value as typeof only)} aria-label="Show">
          <option value="all">all tasks</option>
          <option value="moved">moved</option>
          <option value="regressed">regressed</option>
          <option value="improved">improved</option>
        </select>
        <select value={sort} onChange={(e) => setSort(e.target.value as SortKey)} aria-label="Sort by">
          <option value="regression">worst regression first</option>
          <option value="task">task</option>
          <option value="baseline">baseline pass rate</option>
          <option value="candidate">candidate pass rate</option>
        </select>
        <span className="muted">{shown.length} shown</span>
      </div>
      <div className="task-grid-head" role="row">
        <span role="columnheader">Task</span><span role="columnheader" className="num">Baseline</span>
        <span role="columnheader" className="num">Candidate</span><span role="columnheader" className="num">Delta</span>
      </div>
      <div className="task-grid" ref={scroller} role="table" aria-rowcount={shown.length} data-testid="compare-tasks">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const task = shown[item.index];
            return (
              <button
                type="button"
                role="row"
                key={task.task}
                className={`task-line ${task.status}${open === task.task ? ' selected' : ''}`}
                style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}
                onClick={() => setOpen(open === task.task ? null : task.task)}
                data-task={task.task}
                data-status={task.status}
              >
                <span className="mono">{task.task}</span>
                <span className="num">{formatReward(task.baseline)}</span>
                <span className="num">{formatReward(task.candidate)}</span>
                <span className="num">{signed(task.delta)}</span>
              </button>
            );
          })}
        </div>
      </div>
      {open && <TaskRows task={open} baseline={baseline} candidate={candidate} onClose={() => setOpen(null)} />}
    </section>
  );
}
