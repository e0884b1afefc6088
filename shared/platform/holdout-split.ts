// The deterministic holdout split made before a push (platform-api.md §3.3): the same task always lands on the same side.
import { StatsValueError } from '../stats/errors';
import { sha256Hex } from '../stats/hash';
import { isObject, taskKey } from '../stats/keys';

export interface HoldoutSplit {
  /** Positions in the input, in order. */
  train: number[];
  holdout: number[];
}

const BUCKETS = 16 ** 8 - 1;

/** The row's bucket in [0, 1]: the first 8 hex digits of sha256(task key) over 16^8 - 1. */
export function holdoutBucket(row: unknown): number {
  const key = isObject(row) ? taskKey(row) : '';
  return parseInt(sha256Hex(key).slice(0, 8), 16) / BUCKETS;
}

/** Rows whose bucket is under `fraction` go to the holdout. Null or 0 means no split; otherwise 0 < fraction < 1. */
export function holdoutSplit(rows: readonly unknown[], fraction: number | null | undefined): HoldoutSplit {
  const all = rows.map((_, i) => i);
  if (fraction === null || fraction === undefined || fraction === 0) return { train: all, holdout: [] };
  if (typeof fraction !== 'number' || !(fraction > 0 && fraction < 1)) {
    throw new StatsValueError(`holdout fraction must be between 0 and 1, exclusive (got ${String(fraction)}); 0.2 holds out about a fifth of the tasks`);
  }
  const out: HoldoutSplit = { train: [], holdout: [] };
  rows.forEach((row, i) => (holdoutBucket(row) < fraction ? out.holdout : out.train).push(i));
  if (!out.train.length && rows.length) {
    throw new StatsValueError(`holdout fraction ${fraction} leaves no train rows: every one of the ${rows.length} row(s) falls in the holdout; use a smaller fraction`);
  }
  return out;
}
