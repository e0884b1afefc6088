// hack_scan's candidate columns and their correlations with reward (docs/hack-scan.md, "The math"): columns stored
// sparse (the rows where they are non-zero), identical columns folded into one feature with aliases, and the
// within-ask and pooled correlations. Every sum runs in the SDK's order, so the floats are the SDK's floats.

export interface Feature {
  name: string;
  /** Other columns with exactly the same entries. */
  aliases: string[];
  /** Rows where the column is non-zero, ascending, and its values there (null: every value is 1). */
  idx: Int32Array;
  val: Float64Array | null;
  /** The two features a conjunction narrows (empty for a plain column). */
  parents: Feature[];
  sdWithin: number;
  sdPooled: number;
}

/** What every correlation reads: the rows' asks, their sizes, the rewards and the within-ask centred rewards. */
export interface ScanFrame {
  n: number;
  groupOfRow: Int32Array;
  groupSize: Int32Array;
  rewards: Float64Array;
  centred: Float64Array;
  /** sd of the centred rewards. */
  sr: number;
}

export interface Column {
  idx: number[];
  val: number[];
}

export const isBinary = (feature: Feature): boolean => feature.val === null;

export function featureOf(name: string, idx: ArrayLike<number>, val: ArrayLike<number> | null, parents: Feature[] = []): Feature {
  let ones = true;
  if (val) for (let k = 0; k < val.length; k++) if (val[k] !== 1) (ones = false);
  return { name, aliases: [], idx: Int32Array.from(idx), val: ones || !val ? null : Float64Array.from(val), parents, sdWithin: 0, sdPooled: 0 };
}

function sameEntries(a: Feature, b: Column): boolean {
  if (a.idx.length !== b.idx.length) return false;
  for (let k = 0; k < b.idx.length; k++) if (a.idx[k] !== b.idx[k] || (a.val ? a.val[k] : 1) !== b.val[k]) return false;
  return true;
}

function entriesHash(column: Column): number {
  let h = 0x811c9dc5 ^ column.idx.length;
  for (let k = 0; k < column.idx.length; k++) {
    h = Math.imul(h ^ column.idx[k], 0x01000193);
    h = Math.imul(h ^ (column.val[k] * 65537) | 0, 0x01000193);
  }
  return h >>> 0;
}

/** Columns with at least `minObs` entries as features; a column identical to an earlier one becomes its alias. */
export function collapse(columns: Map<string, Column>, minObs: number): Feature[] {
  const byHash = new Map<number, Feature[]>();
  const out: Feature[] = [];
  for (const [name, column] of columns) {
    if (column.idx.length < minObs) continue;
    const hash = entriesHash(column);
    const bucket = byHash.get(hash);
    const same = bucket?.find((feature) => sameEntries(feature, column));
    if (same) {
      same.aliases.push(name);
      continue;
    }
    const feature = featureOf(name, column.idx, column.val);
    if (bucket) bucket.push(feature);
    else byHash.set(hash, [feature]);
    out.push(feature);
  }
  return out;
}

/** Scratch space for within-ask sums: one slot per ask, and the asks a feature touched in first-touch order. */
export class GroupScratch {
  readonly sums: Float64Array;
  readonly squares: Float64Array;
  readonly stamp: Int32Array;
  readonly touched: Int32Array;
  private generation = 0;
  constructor(groups: number) {
    this.sums = new Float64Array(groups);
    this.squares = new Float64Array(groups);
    this.stamp = new Int32Array(groups).fill(-1);
    this.touched = new Int32Array(groups);
  }
  next(): number {
    return ++this.generation;
  }
}

/** sd of the within-ask centred column, from its non-zero entries: sum over asks of (sum f^2 - (sum f)^2 / n_g). */
export function withinSd(feature: Feature, frame: ScanFrame, scratch: GroupScratch): number {
  const { idx, val } = feature;
  const { sums, squares, stamp, touched } = scratch;
  const generation = scratch.next();
  let count = 0;
  for (let k = 0; k < idx.length; k++) {
    const g = frame.groupOfRow[idx[k]];
    const v = val ? val[k] : 1;
    if (stamp[g] !== generation) {
      stamp[g] = generation;
      sums[g] = 0;
      squares[g] = 0;
      touched[count++] = g;
    }
    sums[g] += v;
    squares[g] += v * v;
  }
  let total = 0;
  for (let t = 0; t < count; t++) {
    const g = touched[t];
    total += squares[g] - (sums[g] * sums[g]) / frame.groupSize[g];
  }
  return frame.n ? Math.sqrt(Math.max(total, 0) / frame.n) : 0;
}

export function pooledSd(feature: Feature, n: number): number {
  let s = 0;
  let ss = 0;
  const { idx, val } = feature;
  for (let k = 0; k < idx.length; k++) {
    const v = val ? val[k] : 1;
    s += v;
    ss += v * v;
  }
  const mean = s / n;
  return Math.sqrt(Math.max(n ? ss / n - mean * mean : 0, 0));
}

/** The sum of the column's values times `values` at its rows (the centred reward: only non-zero rows add). */
export function dot(feature: Feature, values: Float64Array): number {
  const { idx, val } = feature;
  let sum = 0;
  if (val) for (let k = 0; k < idx.length; k++) sum += val[k] * values[idx[k]];
  else for (let k = 0; k < idx.length; k++) sum += values[idx[k]];
  return sum;
}

/** corr(centred feature, centred reward). */
export function rhoWithin(feature: Feature, frame: ScanFrame): number {
  if (feature.sdWithin <= 0 || frame.sr <= 0) return 0;
  return dot(feature, frame.centred) / (frame.n * feature.sdWithin * frame.sr);
}

/** The pooled reward moments corr(feature, reward) reads. */
export function pooledMoments(rewards: Float64Array): { mean: number; sd: number } {
  let s = 0;
  let ss = 0;
  for (let i = 0; i < rewards.length; i++) {
    s += rewards[i];
    ss += rewards[i] * rewards[i];
  }
  const n = rewards.length;
  const mean = s / n;
  return { mean, sd: Math.sqrt(Math.max(ss / n - mean * mean, 0)) };
}

/** corr(feature, reward) over all rows, ignoring the asks: what a pooled correlation would report. */
export function rhoPooled(feature: Feature, rewards: Float64Array, moments: { mean: number; sd: number }): number {
  if (feature.sdPooled <= 0 || moments.sd <= 0) return 0;
  const n = rewards.length;
  const { idx, val } = feature;
  let s = 0;
  for (let k = 0; k < idx.length; k++) s += val ? val[k] : 1;
  const cov = dot(feature, rewards) / n - (s / n) * moments.mean;
  return cov / (feature.sdPooled * moments.sd);
}

/** Named by an endorsed pattern (a case-insensitive substring) under any alias; a conjunction when a parent is. */
export function isEndorsed(feature: Feature, patterns: readonly string[]): boolean {
  if (patterns.length === 0) return false;
  const names = [feature.name, ...feature.aliases].map((name) => name.toLowerCase());
  if (patterns.some((pattern) => names.some((name) => name.includes(pattern.toLowerCase())))) return true;
  return feature.parents.some((parent) => isEndorsed(parent, patterns));
}
