// The rows a queue is built from, kept per dataset while its row count holds (rows are only appended), with the
// default stratified order and the filter choices computed once: a 100k-row queue opens without a rescan.
import type { Db } from '../db/connection';
import { queueColumns, type QueueColumns } from '../rows/index';
import { seededRandom, seedOf, shuffle } from './seeded';

export type JudgeClass = 'pass' | 'fail' | 'ungraded';

export const judgeClass = (reward: number | null): JudgeClass => (reward === 1 ? 'pass' : reward === 0 ? 'fail' : 'ungraded');

export interface QueueRows {
  rows: QueueColumns[];
  byKey: Map<string, number>;
  /** Indexes into rows: judge-pass and judge-fail rows alternate (each class shuffled), ungraded rows last. */
  stratified: Int32Array;
  facets: { tasks: string[]; categories: string[]; judge_statuses: string[] };
  /** Rows that arrived with a gold. */
  ownGold: number;
}

const caches = new WeakMap<Db, Map<string, { rowCount: number; value: QueueRows }>>();
const MAX_CACHED = 4;
const MAX_FACETS = 200;

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
  const hit = cache.get(datasetId);
  if (hit && hit.rowCount === rowCount) return hit.value;
  const rows = queueColumns(db, datasetId);
  const value: QueueRows = {
    rows,
    byKey: new Map(rows.map((row, i) => [row.rowKey, i])),
    stratified: stratifiedOrder(rows, datasetId),
    ownGold: rows.reduce((n, row) => n + (row.goldState === 'none' ? 0 : 1), 0),
    facets: {
      tasks: topValues(rows.map((row) => row.task)),
      categories: topValues(rows.map((row) => row.category)),
      judge_statuses: topValues(rows.map((row) => row.judgeStatus)),
    },
  };
  cache.delete(datasetId);
  cache.set(datasetId, { rowCount: rows.length, value });
  while (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value as string);
  return value;
}
