// delta_report training seeds and balanced rollouts (stats-semantics.md section 8, "Training seeds" and balance_rollouts).
import { StatsValueError } from './errors';
import { isObject, taskKey, type Row } from './keys';
import { pyFixed } from './py-format';
import { PyRandom } from './random';
import { meanOf, sampleSd, taskMeans } from './task-means';
import { meanOfTasks } from './variance';
import { tQuantile } from './t-dist';
import type { DeltaOptions, TargetWord } from './delta-types';

export const MIN_TRAIN_SEEDS = 2;
export const UNRESOLVED_LINE = 'one training seed per arm; add a seed to resolve';

export interface TrainArms {
  before: unknown[][] | null;
  after: unknown[][] | null;
}

/** train_runs as {before, after}: a plain list is the after arm's seeds; null marks an untrained arm. */
export function trainArms(trainRuns: DeltaOptions['train_runs']): TrainArms | null {
  if (trainRuns === null || trainRuns === undefined) return null;
  let arms: Record<'before' | 'after', unknown>;
  if (Array.isArray(trainRuns)) arms = { before: null, after: trainRuns };
  else {
    const keys = Object.keys(trainRuns).sort();
    if (keys.length !== 2 || keys[0] !== 'after' || keys[1] !== 'before') {
      throw new StatsValueError(`train_runs maps 'before' and 'after' to one row set per training seed (null for an untrained arm); got keys ${JSON.stringify(keys)}`);
    }
    arms = { before: trainRuns.before ?? null, after: trainRuns.after ?? null };
  }
  const out: TrainArms = { before: null, after: null };
  for (const side of ['before', 'after'] as const) {
    const seeds = arms[side];
    if (seeds === null || seeds === undefined) continue;
    if (!Array.isArray(seeds) || seeds.length === 0) throw new StatsValueError(`train_runs.${side} is empty: pass one row set per training seed, or null for an arm that was not trained`);
    if (seeds.some((s) => isObject(s))) throw new StatsValueError(`train_runs.${side} is a list of rows; it takes a list of row sets, one per training seed`);
    out[side] = seeds as unknown[][];
  }
  if (!out.before && !out.after) throw new StatsValueError('train_runs names no trained arm; pass the seeds of at least one side');
  return out;
}

export interface TrainSpread {
  counts: { before: number | null; after: number | null };
  std: { before: number | null; after: number | null };
  means: { before: number | null; after: number | null };
  df: number | null;
  under_replicated: boolean;
  delta: number | null;
  ci95: [number, number] | null;
  rule: string | null;
}

const sideMean = (rows: readonly unknown[], metric: string): number | null => meanOfTasks(taskMeans(rows, metric));

/** The between-seed term of the headline delta; the interval widened in quadrature with t(df = sum(n - 1)). */
export function trainSpread(
  arms: TrainArms, sideMeans: Record<'before' | 'after', number | null>, metric: string, ci: [number, number] | null, level: number,
): TrainSpread {
  const out: TrainSpread = {
    counts: { before: null, after: null }, std: { before: null, after: null }, means: { before: null, after: null },
    df: null, under_replicated: false, delta: null, ci95: null, rule: null,
  };
  let variance = 0;
  let df = 0;
  for (const side of ['before', 'after'] as const) {
    const seeds = arms[side];
    if (!seeds) {
      out.means[side] = sideMeans[side];
      continue;
    }
    const perSeed = seeds.map((s) => sideMean(s, metric)).filter((m): m is number => m !== null);
    out.counts[side] = seeds.length;
    out.means[side] = perSeed.length ? meanOf(perSeed) : null;
    const std = perSeed.length >= MIN_TRAIN_SEEDS ? sampleSd(perSeed) : null;
    out.std[side] = std;
    if (std !== null) {
      variance += (std * std) / perSeed.length;
      df += perSeed.length - 1;
    }
  }
  const short = (['before', 'after'] as const).some((s) => out.counts[s] !== null && (out.counts[s] as number) < MIN_TRAIN_SEEDS);
  out.under_replicated = short;
  out.df = short ? null : df;
  if (short || !ci || out.means.before === null || out.means.after === null) return out;
  const q = tQuantile(df, level);
  const half = Math.sqrt(((ci[1] - ci[0]) / 2) ** 2 + q * q * variance);
  const centre = out.means.after - out.means.before;
  const terms = (['before', 'after'] as const).filter((s) => out.std[s] !== null).map((s) => `seed_std_${s}^2/${out.counts[s]}`).join(' + ');
  out.delta = centre;
  out.ci95 = [centre - half, centre + half];
  out.rule = `t(df=${df})=${pyFixed(q, 2)} x sqrt(${terms}), added in quadrature to the task interval`;
  return out;
}

/** The verdict after the training-seed rule: [gate word, printed word]. */
export function trainWord(word: TargetWord | null, train: TrainSpread | null): [TargetWord | null, TargetWord | null] {
  if (!train || word === null || word === 'insufficient_data' || word === 'target_not_measured') return [word, word];
  let w: TargetWord = word;
  if (train.ci95 && (w === 'moved' || w === 'moved_unreplicated' || w === 'moved_the_wrong_way')) {
    const [lo, hi] = train.ci95;
    if (lo <= 0 && 0 <= hi) w = 'no_change_detected';
  }
  return train.under_replicated ? [w, 'unresolved'] : [w, w];
}

export interface Balanced {
  rows_dropped: { before: number; after: number };
  tasks_trimmed: number;
}

/** Trims every task on both sides to the smaller row count, choosing rows by a "<seed>:<side>:<task>" shuffle. */
export function balanceRollouts(before: readonly unknown[], after: readonly unknown[], seed: number): { before: unknown[]; after: unknown[]; balanced: Balanced } {
  const grouped = (rows: readonly unknown[]) => {
    const m = new Map<string, number[]>();
    rows.forEach((row, i) => {
      if (!isObject(row)) return;
      const key = taskKey(row as Row);
      const list = m.get(key);
      if (list) list.push(i);
      else m.set(key, [i]);
    });
    return m;
  };
  const ga = grouped(before);
  const gb = grouped(after);
  const keep = new Map<string, number>();
  for (const [task, ia] of ga) {
    const ib = gb.get(task);
    if (!ib || ia.length === ib.length) continue;
    keep.set(task, Math.min(ia.length, ib.length));
  }
  const trim = (rows: readonly unknown[], groups: Map<string, number[]>, side: string) => {
    const drop = new Set<number>();
    for (const [task, want] of keep) {
      const members = groups.get(task) as number[];
      if (members.length <= want) continue;
      const order = members.map((_, i) => i);
      new PyRandom(`${seed}:${side}:${task}`).shuffle(order);
      for (const i of order.slice(want)) drop.add(members[i]);
    }
    return rows.filter((_, i) => !drop.has(i));
  };
  const a = trim(before, ga, 'before');
  const b = trim(after, gb, 'after');
  return { before: a, after: b, balanced: { rows_dropped: { before: before.length - a.length, after: after.length - b.length }, tasks_trimmed: keep.size } };
}
