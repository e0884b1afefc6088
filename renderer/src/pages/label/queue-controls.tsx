// The queue's order, its filters (task, category, judge verdict, judge status, a marker) and everyone's progress.
import type { QueueFilters, QueueOrder } from '../../../../shared/api/labels';
import { formatCount } from '../../components/format';
import { useLabel } from './label-store';
import { MarkerFilter } from './marker-filter';

const ORDERS: Array<[QueueOrder, string]> = [
  ['stratified', 'Stratified by judge verdict'],
  ['unlabeled', 'Unlabeled first'],
  ['disagreements', 'Disagreements'],
  ['aimed', 'Aimed at the trust verdict'],
];

function Choice({ label, value, options, onChange, testId }: { label: string; value: string | undefined; options: Array<[string, string]>; onChange: (value: string | undefined) => void; testId: string }) {
  return (
    <label className="control">
      <span>{label}</span>
      <select data-testid={testId} value={value ?? ''} onChange={(event) => onChange(event.target.value || undefined)}>
        <option value="">Any</option>
        {options.map(([v, text]) => <option key={v} value={v}>{text}</option>)}
      </select>
    </label>
  );
}

export function QueueControls() {
  const order = useLabel((s) => s.order);
  const filters = useLabel((s) => s.filters);
  const facets = useLabel((s) => s.facets);
  const progress = useLabel((s) => s.progress);
  const total = useLabel((s) => s.total);
  const annotator = useLabel((s) => s.annotator);
  const setOrder = useLabel((s) => s.setOrder);
  const setFilters = useLabel((s) => s.setFilters);
  const change = (key: keyof QueueFilters) => (value: string | undefined) => setFilters({ ...filters, [key]: value } as QueueFilters);
  const pairs = (values: string[]): Array<[string, string]> => values.map((v) => [v, v]);
  return (
    <section className="queue-controls" aria-label="Queue">
      <label className="control">
        <span>Order</span>
        <select data-testid="queue-order" value={order} onChange={(event) => setOrder(event.target.value as QueueOrder)}>
          {ORDERS.map(([value, text]) => <option key={value} value={value}>{text}</option>)}
        </select>
      </label>
      <Choice label="Judge said" testId="filter-reward" value={filters.reward} options={[['pass', 'pass'], ['fail', 'fail'], ['ungraded', 'ungraded']]} onChange={change('reward')} />
      {facets.tasks.length > 1 && <Choice label="Task" testId="filter-task" value={filters.task} options={pairs(facets.tasks)} onChange={change('task')} />}
      {facets.categories.length > 0 && <Choice label="Category" testId="filter-category" value={filters.category} options={pairs(facets.categories)} onChange={change('category')} />}
      {facets.judge_statuses.length > 1 && <Choice label="Judge status" testId="filter-judge-status" value={filters.judge_status} options={pairs(facets.judge_statuses)} onChange={change('judge_status')} />}
      {facets.markers.length > 0 && <MarkerFilter names={facets.markers} value={filters.marker} onChange={(marker) => setFilters({ ...filters, marker })} />}
      {progress && (
        <div className="progress-line" data-testid="label-progress" aria-live="polite">
          <strong>{annotator}</strong>: {formatCount(progress.mine)} labeled · {formatCount(progress.gold_rows)} of {formatCount(progress.rows)} rows have gold · {formatCount(total)} in this queue
          {progress.annotators.filter((a) => a.annotator !== annotator).map((a) => (
            <span key={a.annotator} className="muted"> · {a.annotator} {formatCount(a.labeled)}</span>
          ))}
        </div>
      )}
    </section>
  );
}
