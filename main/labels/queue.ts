// The labeling queue (labels.queue): a dataset's rows in the asked order, filtered, with the annotator's own
// current label on each and everyone's progress. Orders:
//   stratified     judge-pass and judge-fail rows in turn, each class shuffled by the dataset id (the default)
//   unlabeled      rows with no gold and no label of this annotator first, then the rest, both stratified
//   disagreements  only rows where annotators disagree, then rows where the gold disagrees with the judge
//   aimed          the rows that settle the trust verdict fastest (aimed.ts)
import type { QueueFilters, QueueItem, QueueOrder } from '../../shared/api/labels';
import type { Db } from '../db/connection';
import { rowJsonByOrdinal, storedRowKey, type QueueColumns } from '../rows/index';
import { aimedOrder } from './aimed';
import { labelState, type LabelState } from './current';
import { judgeClass, queueRowDetails, queueRows } from './queue-rows';

export interface QueueRequest {
  datasetId: string;
  rowCount: number;
  annotator: string;
  order: QueueOrder;
  filters: QueueFilters;
  offset: number;
  limit: number;
}

function matches(row: QueueColumns, filters: QueueFilters): boolean {
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

export async function buildQueue(db: Db, request: QueueRequest) {
  const queue = queueRows(db, request.datasetId, request.rowCount);
  // Filters and the aimed order need the rows' JSON fields; otherwise they are read in the background.
  const needsDetails = request.order === 'aimed' || request.filters.task !== undefined || request.filters.category !== undefined || request.filters.judge_status !== undefined;
  if (needsDetails) await queueRowDetails(db, request.datasetId, queue);
  else void queueRowDetails(db, request.datasetId, queue).catch(() => undefined);
  const { rows, byKey, stratified, ownGold } = queue;
  const state = labelState(db, request.datasetId, (key) => {
    const index = byKey.get(key);
    return index === undefined ? undefined : rows[index].ordinal;
  });
  const filtered = Object.values(request.filters).some((value) => value !== undefined);
  // A progress read (limit 0) of an order that keeps every row needs no ordering: the total is the row count.
  const keepsAll = request.order === 'stratified' || request.order === 'unlabeled';
  let total: number;
  let page: Array<{ index: number; why?: string }>;
  if (request.limit === 0 && keepsAll && !filtered) {
    total = rows.length;
    page = [];
  } else {
    const base = filtered ? Array.from(stratified).filter((index) => matches(rows[index], request.filters)) : stratified;
    if (request.order === 'stratified') {
      // The default order is the cached one: only the page is built.
      total = base.length;
      page = Array.from(base.slice(request.offset, request.offset + request.limit), (index) => ({ index }));
    } else {
      const order = ordered(rows, Array.from(base), state, request);
      total = order.length;
      page = order.slice(request.offset, request.offset + request.limit);
    }
  }
  const unkeyed = page.filter(({ index }) => rows[index].rowKey === null).map(({ index }) => rows[index].ordinal);
  const json = rowJsonByOrdinal(db, request.datasetId, unkeyed);
  const items: QueueItem[] = page.map(({ index, why }) => {
    const row = rows[index];
    const rowKey = storedRowKey(row.rowKey, () => json.get(row.ordinal) ?? '{}');
    const item: QueueItem = {
      ordinal: row.ordinal,
      row_key: rowKey,
      scenario_id: row.scenarioId,
      reward: row.reward,
      judge_status: row.judgeStatus,
      gold_state: state.gold.get(keyOf(row)) ?? row.goldState,
      my_label: state.votes.get(keyOf(row))?.get(request.annotator) ?? null,
    };
    if (why) item.why = why;
    return item;
  });
  const perAnnotator = new Map<string, number>();
  for (const votes of state.votes.values()) for (const annotator of votes.keys()) perAnnotator.set(annotator, (perAnnotator.get(annotator) ?? 0) + 1);
  // The rows that arrived with a gold, corrected by the rows whose labels changed that.
  let goldRows = ownGold;
  for (const [key, gold] of state.gold) {
    const index = byKey.get(key);
    if (index !== undefined) goldRows += (gold === 'none' ? 0 : 1) - (rows[index].goldState === 'none' ? 0 : 1);
  }
  return {
    items,
    total,
    progress: {
      rows: rows.length,
      gold_rows: goldRows,
      mine: perAnnotator.get(request.annotator) ?? 0,
      annotators: [...perAnnotator].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([annotator, labeled]) => ({ annotator, labeled })),
    },
    facets: queue.facets ?? NO_FACETS,
    facets_ready: queue.facets !== null,
  };
}
