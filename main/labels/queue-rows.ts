// The rows a queue is built from, kept per dataset while its row count holds (rows are only appended) and until
// its first label (which fills the row keys), with the default stratified order computed once. The JSON fields
// (judge status, category, task fallbacks) and the filter choices come in afterwards, read in small chunks
// between other calls (details), so a 100k-row queue opens without a JSON scan and labels are never held up.
import type { Db } from '../db/connection';
import { hasLabels, queueColumns, queueDetails, type QueueColumns } from '../rows/index';
import { seededRandom, seedOf, shuffle } from './seeded';

export type JudgeClass = 'pass' | 'fail' | 'ungraded';

export const judgeClass = (reward: number | null): JudgeClass => (reward === 1 ? 'pass' : reward === 0 ? 'fail' : 'ungraded');

export interface Facets {
  tasks: string[];
  categories: string[];
  judge_statuses: string[];
}

export interface QueueRows {
  rows: QueueColumns[];
  byKey: Map<string, number>;
  /** Indexes into rows: judge-pass and judge-fail rows alternate (each class shuffled), ungraded rows last. */
  stratified: Int32Array;
  /** Rows that arrived with a gold. */
  ownGold: number;
  /** Null until the details are read. */
  facets: Facets | null;
  details: Promise<void> | null;
}

interface Cached {
  rowCount: number;
  keyed: boolean;
  value: QueueRows;
}

const caches = new WeakMap<Db, Map<string, Cached>>();
const MAX_CACHED = 4;
const MAX_FACETS = 200;
/** Rows read per chunk of details: about 10 ms of the engine's thread at a time. */
const DETAIL_CHUNK = 2000;

/** Stratified random by judge class, reproducible per dataset (seeded by its id): both classes come early. */
export function stratifiedOrder(rows: readonly QueueColumns[], seed: string): Int32Array {
  const random = seededRandom(seedOf(seed));
  const classes: Record<JudgeClass, number[]> = { pass: [], fail: [], ungraded: [] };
  rows.forEach((row, i) => classes[judgeClass(row.reward)].push(i));
  const pass = shuffle(classes.pass, random);
  const fail = shuffle(classes.fail, random);
  const out = new Int32Array(rows.length);
  let at = 0;
  for (let i = 0; i < Math.max(pass.length, fail.length); i++) {
    if (i < pass.length) out[at++] = pass[i];
    if (i < fail.length) out[at++] = fail[i];
  }
  for (const i of shuffle(classes.ungraded, random)) out[at++] = i;
  return out;
}

function topValues(values: Iterable<string | null>): string[] {
  const counts = new Map<string, number>();
  for (const value of values) if (value !== null && value !== '') counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, MAX_FACETS).map(([value]) => value);
}

export function queueRows(db: Db, datasetId: string, rowCount: number): QueueRows {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const keyed = hasLabels(db, datasetId);
  const hit = cache.get(datasetId);
  if (hit && hit.rowCount === rowCount && hit.keyed === keyed) return hit.value;
  const rows = queueColumns(db, datasetId);
  const value: QueueRows = {
    rows,
    byKey: new Map(rows.flatMap((row, i) => (row.rowKey === null ? [] : [[row.rowKey, i] as const]))),
    stratified: stratifiedOrder(rows, datasetId),
    ownGold: rows.reduce((n, row) => n + (row.goldState === 'none' ? 0 : 1), 0),
    facets: hit && hit.rowCount === rowCount ? hit.value.facets : null,
    details: null,
  };
  if (value.facets && hit) {
    // Only the keys changed (a first label): the details read before still hold.
    hit.value.rows.forEach((old, i) => Object.assign(rows[i], { judgeStatus: old.judgeStatus, category: old.category, task: old.task }));
    value.details = hit.value.details;
  }
  cache.delete(datasetId);
  cache.set(datasetId, { rowCount: rows.length, keyed, value });
  while (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value as string);
  return value;
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Reads the JSON fields of every row, a chunk per turn of the event loop; resolves once the facets are known. */
export function queueRowDetails(db: Db, datasetId: string, queue: QueueRows): Promise<void> {
  if (queue.details) return queue.details;
  queue.details = (async () => {
    const byOrdinal = new Map(queue.rows.map((row, i) => [row.ordinal, i]));
    for (let after = Number.MIN_SAFE_INTEGER; ; ) {
      const chunk = queueDetails(db, datasetId, after, DETAIL_CHUNK);
      if (chunk.length === 0) break;
      for (const [ordinal, judgeStatus, category, fallback] of chunk) {
        const row = queue.rows[byOrdinal.get(ordinal) ?? -1];
        if (!row) continue;
        row.judgeStatus = judgeStatus;
        row.category = category;
        if (row.scenarioId === null || row.scenarioId === '') row.task = fallback ?? '';
      }
      after = chunk[chunk.length - 1][0];
      await tick();
    }
    queue.facets = {
      tasks: topValues(queue.rows.map((row) => row.task)),
      categories: topValues(queue.rows.map((row) => row.category)),
      judge_statuses: topValues(queue.rows.map((row) => row.judgeStatus)),
    };
  })();
  return queue.details;
}
