// The labeling queue (labels.queue): a dataset's rows in the asked order, filtered, with the annotator's own
// current label on each and everyone's progress. Orders:
//   stratified     judge-pass and judge-fail rows in turn, each class shuffled by the dataset id (the default)
//   unlabeled      rows with no gold and no label of this annotator first, then the rest, both stratified
//   disagreements  only rows where annotators disagree, then rows where the gold disagrees with the judge
//   aimed          the rows that settle the trust verdict fastest (aimed.ts)
import type { QueueFilters, QueueItem, QueueOrder } from '../../shared/api/labels';
import type { Db } from '../db/connection';
import { getRow, markerNames, markerOrdinals, queuePageRows, storedRowKey, type QueueColumns } from '../rows/index';
import { aimedOrder } from './aimed';
import { labelState, type LabelState } from './current';
import { judgeClass, ordinalAt, queueColumnsOf, queueRowDetails, queueRows, readInBackground, type QueueRows } from './queue-rows';

export interface QueueRequest {
  datasetId: string;
  rowCount: number;
  annotator: string;
  order: QueueOrder;
  filters: QueueFilters;
  offset: number;
  limit: number;
  withRows?: number;
}

function matches(row: QueueColumns, filters: QueueFilters, marked: Set<number> | null): boolean {
  if (marked && !marked.has(row.ordinal)) return false;
  if (filters.task !== undefined && row.task !== filters.task) return false;
  if (filters.category !== undefined && row.category !== filters.category) return false;
  if (filters.reward !== undefined && judgeClass(row.reward) !== filters.reward) return false;
  if (filters.judge_status !== undefined && row.judgeStatus !== filters.judge_status) return false;
  return true;
}

/** A row's key for label lookups: unkeyed rows (an imported dataset before its first label) have no labels. */
const keyOf = (row: QueueColumns) => row.rowKey ?? '';

function ordered(rows: readonly QueueColumns[], base: readonly number[], state: LabelState, request: QueueRequest): Array<{ index: number; why?: string }> {
  const goldOf = (row: QueueColumns) => state.gold.get(keyOf(row)) ?? row.goldState;
  switch (request.order) {
    case 'stratified':
      return base.map((index) => ({ index }));
    case 'unlabeled': {
      const open: number[] = [];
      const done: number[] = [];
      for (const index of base) {
        const row = rows[index];
        (goldOf(row) === 'none' && !state.votes.get(keyOf(row))?.has(request.annotator) ? open : done).push(index);
      }
      return [...open, ...done].map((index) => ({ index }));
    }
    case 'disagreements': {
      const between: Array<{ index: number; why: string }> = [];
      const withJudge: Array<{ index: number; why: string }> = [];
      for (const index of base) {
        const row = rows[index];
        const values = [...(state.votes.get(keyOf(row))?.values() ?? [])];
        if (values.length > 1 && values.some((value) => value !== values[0])) between.push({ index, why: 'annotators disagree' });
        else {
          const gold = goldOf(row);
          const judge = judgeClass(row.reward);
          if (gold !== 'none' && judge !== 'ungraded' && gold !== judge) withJudge.push({ index, why: `gold ${gold}, judge ${judge}` });
        }
      }
      return [...between, ...withJudge];
    }
    case 'aimed':
      return aimedOrder(rows, base, state, request.annotator);
  }
}

const NO_FACETS = { tasks: [], categories: [], judge_statuses: [] };

type Placed = { ordinal: number; why?: string };

type Labels = ReturnType<typeof labelState>;

/**
 * The asked page of the queue, as ordinals (and why, in the orders that say), how many rows the queue has, and the
 * labels as they stand once the rows it needed were read.
 */
async function placePage(db: Db, request: QueueRequest, queue: QueueRows): Promise<{ page: Placed[]; total: number; state: Labels }> {
  const filtered = Object.values(request.filters).some((value) => value !== undefined);
  // The default order, and a progress read (limit 0) of an order that keeps every row, need only the outline.
  if (!filtered && (request.order === 'stratified' || (request.limit === 0 && request.order === 'unlabeled'))) {
    readInBackground(db, request.datasetId, queue);
    const slice = request.limit === 0 ? [] : queue.stratified.subarray(request.offset, request.offset + request.limit);
    return { page: Array.from(slice, (index) => ({ ordinal: ordinalAt(queue.outline, index) })), total: queue.outline.count, state: labelState(db, request.datasetId) };
  }
  // Filters and the aimed order need the rows' JSON fields; the other orders their columns.
  const needsDetails = request.order === 'aimed' || request.filters.task !== undefined || request.filters.category !== undefined || request.filters.judge_status !== undefined;
  if (needsDetails) await queueRowDetails(db, request.datasetId, queue);
  else readInBackground(db, request.datasetId, queue);
  const { rows } = await queueColumnsOf(db, request.datasetId, queue);
  const state = labelState(db, request.datasetId);
  const { marker } = request.filters;
  const marked = marker ? markerOrdinals(db, request.datasetId, marker.name, marker.value === 1 ? '1' : '0') : null;
  const base = filtered ? Array.from(queue.stratified).filter((index) => matches(rows[index], request.filters, marked)) : queue.stratified;
  const order: Array<{ index: number; why?: string }> = request.order === 'stratified' ? Array.from(base, (index) => ({ index })) : ordered(rows, Array.from(base), state, request);
  return { page: order.slice(request.offset, request.offset + request.limit).map(({ index, why }) => ({ ordinal: rows[index].ordinal, why })), total: order.length, state };
}

export async function buildQueue(db: Db, request: QueueRequest) {
  const queue = queueRows(db, request.datasetId, request.rowCount);
  const { page, total, state } = await placePage(db, request, queue);
  const found = queuePageRows(db, request.datasetId, page.map(({ ordinal }) => ordinal));
  const items: QueueItem[] = page.flatMap(({ ordinal, why }) => {
    const row = found.get(ordinal);
    if (!row) return [];
    const rowKey = storedRowKey(row.rowKey, row.keyJson ?? '{}');
    const item: QueueItem = {
      ordinal,
      row_key: rowKey,
      scenario_id: row.scenarioId,
      reward: row.reward,
      gold_state: state.gold.get(rowKey) ?? row.goldState,
      my_label: state.votes.get(rowKey)?.get(request.annotator) ?? null,
    };
    if (why) item.why = why;
    return [item];
  });
  const perAnnotator = new Map<string, number>();
  for (const votes of state.votes.values()) for (const annotator of votes.keys()) perAnnotator.set(annotator, (perAnnotator.get(annotator) ?? 0) + 1);
  // The rows that arrived with a gold, corrected by the rows whose labels changed that.
  let goldRows = queue.outline.ownGold;
  for (const [key, gold] of state.gold) {
    const owner = state.owners.get(key);
    if (owner) goldRows += (gold === 'none' ? 0 : 1) - (owner.goldState === 'none' ? 0 : 1);
  }
  const withRows = items.slice(0, request.withRows ?? 0).flatMap(({ ordinal }) => {
    const found = getRow(db, request.datasetId, ordinal);
    return found ? [{ ordinal, row: found.row }] : [];
  });
  return {
    ...(request.withRows ? { rows: withRows } : {}),
    items,
    total,
    progress: {
      rows: queue.outline.count,
      gold_rows: goldRows,
      mine: perAnnotator.get(request.annotator) ?? 0,
      annotators: [...perAnnotator].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([annotator, labeled]) => ({ annotator, labeled })),
    },
    // Marker names come once marker_flags is filled: by the background read (before the other facets), or by this
    // call's own marker filter. Never filled here for a first page: 100k rows' JSON would delay the first row.
    facets: { ...(queue.facets ?? NO_FACETS), markers: queue.facets || request.filters.marker ? markerNames(db, request.datasetId) : [] },
    facets_ready: queue.facets !== null,
  };
}
