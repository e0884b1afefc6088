// Every task paired: baseline against candidate, green or red, sorted by regression, filterable; a click opens both sides.
// It reads the report's columns as they came (one array each for task, baseline and candidate, in regression order)
// and makes a row only for the few in view: 25,000 row objects, and their filtered copy, were some 30 ms of the
// moment the compare screen shows.
import { useMemo, useRef, useState } from 'react';
import { taskRowAt, taskStatusAt, type PairedTaskColumns } from '../../../../shared/stats/paired-tasks';
import { formatReward } from '../../components/format';
import { useFixedRows } from '../../components/use-fixed-rows';
import { TaskRows } from './task-rows';

type SortKey = 'regression' | 'task' | 'baseline' | 'candidate';
type Only = 'all' | 'regressed' | 'improved' | 'moved';
const ROW_HEIGHT = 30;

const rate = (values: Array<number | null>, i: number) => values[i] ?? -1;

/** How the indexes of the rows shown are ordered; null keeps the table's own order (worst regression first). */
function sortOf(sort: SortKey, t: PairedTaskColumns): ((i: number, j: number) => number) | null {
  if (sort === 'task') return (i, j) => (t.task[i] < t.task[j] ? -1 : t.task[i] > t.task[j] ? 1 : 0);
  if (sort === 'baseline') return (i, j) => rate(t.baseline, i) - rate(t.baseline, j);
  if (sort === 'candidate') return (i, j) => rate(t.candidate, i) - rate(t.candidate, j);
  return null;
}

function keeps(only: Only, t: PairedTaskColumns, i: number): boolean {
  if (only === 'all') return true;
  const status = taskStatusAt(t, i);
  return only === 'moved' ? status === 'regressed' || status === 'improved' : status === only;
}

const signed = (v: number | null) => (v === null ? '—' : `${v >= 0 ? '+' : ''}${v.toFixed(3)}`);

export function TaskTable({ table, baseline, candidate }: { table: PairedTaskColumns; baseline: string; candidate: string }) {
  const [filter, setFilter] = useState('');
  const [only, setOnly] = useState<Only>('all');
  const [sort, setSort] = useState<SortKey>('regression');
  const [open, setOpen] = useState<string | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  // The indexes of the rows shown, in order; null: every row in the table's order (the screen as it opens).
  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    const compare = sortOf(sort, table);
    if (!needle && only === 'all' && !compare) return null;
    const kept: number[] = [];
    for (let i = 0; i < table.task.length; i++) if ((!needle || table.task[i].toLowerCase().includes(needle)) && keeps(only, table, i)) kept.push(i);
    return compare ? kept.sort(compare) : kept;
  }, [table, filter, only, sort]);
  const count = shown ? shown.length : table.task.length;
  const rows = useFixedRows(scroller, count, ROW_HEIGHT);
  const inView = [];
  for (let at = rows.start; at < rows.end; at++) inView.push({ at, task: taskRowAt(table, shown ? shown[at] : at) });
  return (
    <section className="task-table" aria-label="Tasks, paired">
      <h3>
        Per task: {table.n_paired} paired · <span className="worse">{table.n_regressed} regressed</span> · <span className="better">{table.n_improved} improved</span> ·{' '}
        {table.n_same} unchanged{table.n_only_baseline + table.n_only_candidate > 0 ? ` · ${table.n_only_baseline + table.n_only_candidate} on one side only` : ''}
      </h3>
      <div className="task-table-controls">
        <input value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="filter tasks" aria-label="Filter tasks" />
        <select value={only} onChange={(e) => setOnly(e.target.value as Only)} aria-label="Show">
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
        <span className="muted">{count} shown</span>
      </div>
      <div className="task-grid-head" role="row">
        <span role="columnheader">Task</span><span role="columnheader" className="num">Baseline</span>
        <span role="columnheader" className="num">Candidate</span><span role="columnheader" className="num">Delta</span>
      </div>
      <div className="task-grid" ref={scroller} role="table" aria-rowcount={count} data-testid="compare-tasks">
        <div style={{ height: rows.total, position: 'relative' }}>
          {inView.map(({ at, task }) => (
            <button
              type="button"
              role="row"
              key={task.task}
              className={`task-line ${task.status}${open === task.task ? ' selected' : ''}`}
              style={{ transform: `translateY(${at * ROW_HEIGHT}px)`, height: ROW_HEIGHT }}
              onClick={() => setOpen(open === task.task ? null : task.task)}
              data-task={task.task}
              data-status={task.status}
            >
              <span className="mono">{task.task}</span>
              <span className="num">{formatReward(task.baseline)}</span>
              <span className="num">{formatReward(task.candidate)}</span>
              <span className="num">{signed(task.delta)}</span>
            </button>
          ))}
        </div>
      </div>
      {open && <TaskRows task={open} baseline={baseline} candidate={candidate} onClose={() => setOpen(null)} />}
    </section>
  );
}
