// The rows a queue is built from, kept per dataset while its row count holds (rows are only appended), in three
// layers read as they are needed, so a 100k-row queue opens at once and labels are never held up:
//   outline   every row's judge class, ordinal and arrived gold, from one SQLite pass (queueOutline), and the
//             default stratified order computed from it: enough for the queue's first page (tens of ms).
//   columns   each row's key, task, reward and gold (queueColumnsAfter): the other orders and the filters. Read
//             in chunks, a turn of the event loop each, in the background after a first page, or when asked.
//   details   three small JSON fields (judge_status, category, the task key's fallbacks) and the filter choices,
//             read the same way after the columns: the filters and the aimed order.
import type { Db } from '../db/connection';
import { fillMarkerFlagsGradually, fillRowKeysGradually, hasLabels, queueColumnsAfter, queueDetails, queueOutline, type QueueColumns, type QueueOutline } from '../rows/index';
import { seededRandom, seedOf, shuffle } from './seeded';

export type JudgeClass = 'pass' | 'fail' | 'ungraded';

export const judgeClass = (reward: number | null): JudgeClass => (reward === 1 ? 'pass' : reward === 0 ? 'fail' : 'ungraded');

export interface Facets {
  tasks: string[];
  categories: string[];
  judge_statuses: string[];
}

export interface QueueColumnsRead {
  rows: QueueColumns[];
  /** Row key -> index into rows. */
  byKey: Map<string, number>;
}

export interface QueueRows {
  outline: QueueOutline;
  /** Indexes into the rows (ordinal order): judge-pass and judge-fail rows alternate (each class shuffled), ungraded last. */
  stratified: Int32Array;
  /** Null until read (queueColumnsOf). */
  columns: QueueColumnsRead | null;
  /** Whether the dataset had labels (so keys) when the columns were read. */
  keyedColumns: boolean;
  reading: Promise<QueueColumnsRead> | null;
  /** Null until the details are read. */
  facets: Facets | null;
  details: Promise<void> | null;
  /** Set once the background read is scheduled. */
  background: boolean;
}

const caches = new WeakMap<Db, Map<string, { rowCount: number; value: QueueRows }>>();
const MAX_CACHED = 4;
const MAX_FACETS = 200;
/** Rows read per chunk of columns, and of details: each a few ms of the engine's thread, so a label is not held up. */
const COLUMN_CHUNK = 1000;
const DETAIL_CHUNK = 1000;
/**
 * The background read waits this long after a first page: the desk's first second (its trust numbers, the first
 * labels) goes first. The filter choices come a moment later (the desk asks again until they are ready).
 */
const BACKGROUND_DELAY_MS = 1000;

const CLASS_OF: Record<JudgeClass, string> = { pass: 'p', fail: 'f', ungraded: 'u' };

/** Stratified random by judge class ('p', 'f', 'u' per row), reproducible per dataset (seeded by its id). */
export function stratifiedFromClasses(classes: string, seed: string): Int32Array {
  const random = seededRandom(seedOf(seed));
  // Typed arrays sized by a first count: no growing arrays of 100k numbers on a queue's first open.
  let passes = 0;
  let fails = 0;
  for (let i = 0; i < classes.length; i++) {
    const c = classes.charCodeAt(i);
    if (c === 112) passes++;
    else if (c === 102) fails++;
  }
  const pass = new Int32Array(passes);
  const fail = new Int32Array(fails);
  const ungraded = new Int32Array(classes.length - passes - fails);
  for (let i = 0, p = 0, f = 0, u = 0; i < classes.length; i++) {
    const c = classes.charCodeAt(i);
    if (c === 112) pass[p++] = i;
    else if (c === 102) fail[f++] = i;
    else ungraded[u++] = i;
  }
  shuffle(pass, random);
  shuffle(fail, random);
  shuffle(ungraded, random);
  const out = new Int32Array(classes.length);
  let at = 0;
  for (let i = 0; i < Math.max(passes, fails); i++) {
    if (i < passes) out[at++] = pass[i];
    if (i < fails) out[at++] = fail[i];
  }
  out.set(ungraded, at);
  return out;
}

/** The same order from rows: both judge classes come early. */
export function stratifiedOrder(rows: readonly QueueColumns[], seed: string): Int32Array {
  return stratifiedFromClasses(rows.map((row) => CLASS_OF[judgeClass(row.reward)]).join(''), seed);
}

/** The ordinal of the row at this index (ordinal order). */
export const ordinalAt = (outline: QueueOutline, index: number): number => (outline.ordinals ? outline.ordinals[index] : outline.first + index);

export function queueRows(db: Db, datasetId: string, rowCount: number): QueueRows {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const hit = cache.get(datasetId);
  if (hit && hit.rowCount === rowCount) return hit.value;
  const outline = queueOutline(db, datasetId);
  const value: QueueRows = {
    outline,
    stratified: stratifiedFromClasses(outline.classes, datasetId),
    columns: null,
    keyedColumns: false,
    reading: null,
    facets: null,
    details: null,
    background: false,
  };
  cache.delete(datasetId);
  cache.set(datasetId, { rowCount, value });
  while (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value as string);
  return value;
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

function indexByKey(rows: readonly QueueColumns[]): Map<string, number> {
  const byKey = new Map<string, number>();
  rows.forEach((row, i) => row.rowKey !== null && byKey.set(row.rowKey, i));
  return byKey;
}

/** Row keys are filled when a dataset is first labeled: columns read before then take them in (in place). */
function refreshKeys(db: Db, datasetId: string, queue: QueueRows, read: QueueColumnsRead): void {
  if (queue.keyedColumns || !hasLabels(db, datasetId)) return;
  queue.keyedColumns = true;
  for (let after = Number.MIN_SAFE_INTEGER, at = 0; ; ) {
    const chunk = queueColumnsAfter(db, datasetId, after, COLUMN_CHUNK * 20);
    if (chunk.length === 0) break;
    for (const row of chunk) if (read.rows[at]?.ordinal === row.ordinal) read.rows[at++].rowKey = row.rowKey;
    after = chunk[chunk.length - 1].ordinal;
  }
  read.byKey = indexByKey(read.rows);
}

/** The full columns of every row, read a chunk per turn of the event loop (once per dataset and row count). */
export async function queueColumnsOf(db: Db, datasetId: string, queue: QueueRows): Promise<QueueColumnsRead> {
  queue.reading ??= (async () => {
    const keyed = hasLabels(db, datasetId);
    const rows: QueueColumns[] = [];
    for (let after = Number.MIN_SAFE_INTEGER; ; ) {
      const chunk = queueColumnsAfter(db, datasetId, after, COLUMN_CHUNK);
      if (chunk.length === 0) break;
      for (const row of chunk) rows.push(row);
      after = chunk[chunk.length - 1].ordinal;
      await tick();
    }
    queue.keyedColumns = keyed;
    queue.columns = { rows, byKey: indexByKey(rows) };
    return queue.columns;
  })();
  const read = await queue.reading;
  refreshKeys(db, datasetId, queue, read);
  return read;
}

function topValues(values: Iterable<string | null>): string[] {
  const counts = new Map<string, number>();
  for (const value of values) if (value !== null && value !== '') counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, MAX_FACETS).map(([value]) => value);
}

/** Reads the JSON fields of every row (after the columns), a chunk per turn; resolves once the facets are known. */
export function queueRowDetails(db: Db, datasetId: string, queue: QueueRows): Promise<void> {
  queue.details ??= (async () => {
    const { rows } = await queueColumnsOf(db, datasetId, queue);
    const byOrdinal = new Map(rows.map((row, i) => [row.ordinal, i]));
    for (let after = Number.MIN_SAFE_INTEGER; ; ) {
      const chunk = queueDetails(db, datasetId, after, DETAIL_CHUNK);
      if (chunk.length === 0) break;
      for (const [ordinal, judgeStatus, category, fallback] of chunk) {
        const row = rows[byOrdinal.get(ordinal) ?? -1];
        if (!row) continue;
        row.judgeStatus = judgeStatus;
        row.category = category;
        if (row.scenarioId === null || row.scenarioId === '') row.task = fallback ?? '';
      }
      after = chunk[chunk.length - 1][0];
      await tick();
    }
    queue.facets = {
      tasks: topValues(rows.map((row) => row.task)),
      categories: topValues(rows.map((row) => row.category)),
      judge_statuses: topValues(rows.map((row) => row.judgeStatus)),
    };
  })();
  return queue.details;
}

/**
 * After a first page, a moment later: the row keys are filled, then the columns and details read, so the first
 * label, the filters and the other orders find them ready.
 */
export function readInBackground(db: Db, datasetId: string, queue: QueueRows): void {
  if (queue.background || queue.details) return;
  queue.background = true;
  // The row keys first (an imported dataset's, before its first label: that label would otherwise fill them all
  // before it is stored), then the marker flags (the marker facet), then the details.
  const timer = setTimeout(
    () =>
      void fillRowKeysGradually(db, datasetId)
        .then(() => fillMarkerFlagsGradually(db, datasetId))
        .then(() => queueRowDetails(db, datasetId, queue))
        .catch(() => undefined),
    BACKGROUND_DELAY_MS,
  );
  timer.unref();
}
