// curriculum(rows, solved, floor, band, tiers, min_rollouts) and retireSolved (stats-semantics.md section 6).
import { StatsValueError } from './errors';
import { requireAtLeast, requireUnit } from './ranges';
import { isObject, pyStr, pyTruthy, taskKey, type Row } from './keys';
import { groupLabel } from './readers';
import { pyRound } from './py-format';

export interface CurriculumOptions {
  solved?: number;
  floor?: number;
  band?: [number, number] | number[];
  tiers?: number;
  min_rollouts?: number;
}

export interface TaskStat {
  task_id: string;
  prompt: string;
  n: number;
  pass_rate: number;
}

export interface CurriculumResult {
  n_tasks: number;
  n_trainable: number;
  n_solved: number;
  n_not_ready: number;
  n_thin: number;
  n_in_band: number;
  thresholds: { solved: number; floor: number; band: [number, number]; min_rollouts: number };
  schedule: string[];
  trainable: TaskStat[];
  retired: TaskStat[];
  not_ready: TaskStat[];
  thin: TaskStat[];
  tiers: TaskStat[][];
}

export function curriculum(rows: readonly unknown[], options: CurriculumOptions = {}): CurriculumResult {
  const solved = options.solved ?? 0.8;
  const floor = options.floor ?? 0.2;
  const band = options.band ?? [0.2, 0.8];
  if (!Array.isArray(band) || band.length !== 2) throw new StatsValueError(`curriculum: band must be a pair [low, high] (got ${JSON.stringify(band)})`);
  requireUnit('curriculum', 'solved', solved, 0.8);
  requireUnit('curriculum', 'floor', floor, 0.2);
  const [low, high] = band as unknown[];
  if (!(typeof low === 'number' && typeof high === 'number' && low >= 0 && high <= 1 && low < high)) {
    throw new StatsValueError(`curriculum: band must be [low, high] with 0 <= low < high <= 1 (got ${JSON.stringify(band)}); pass e.g. band=[0.2, 0.8]`);
  }
  const tiers = requireAtLeast('curriculum', 'tiers', options.tiers ?? 3, 1, 3, true);
  const minRollouts = requireAtLeast('curriculum', 'min_rollouts', options.min_rollouts ?? 2, 1, 2);

  // One pass, one map: per task key the first object row's prompt and the 0/1 label sum and count (group-label reader).
  const tasks = new Map<string, { prompt: string; s: number; n: number }>();
  const order: string[] = []; // group order: first appearance among rows that carry a label
  for (const row of rows) {
    if (!isObject(row)) continue;
    const key = taskKey(row);
    let entry = tasks.get(key);
    if (entry === undefined) {
      entry = { prompt: pyTruthy(row.prompt) ? pyStr(row.prompt) : '', s: 0, n: 0 };
      tasks.set(key, entry);
    }
    const label = groupLabel(row);
    if (label === null) continue;
    if (entry.n === 0) order.push(key);
    entry.s += label;
    entry.n++;
  }
  const stats: TaskStat[] = [];
  const rounded = new Map<number, number>(); // few distinct rates (c/n): round each once
  for (const key of order) {
    const entry = tasks.get(key)!;
    const rate = entry.s / entry.n;
    let r = rounded.get(rate);
    if (r === undefined) { r = pyRound(rate, 4); rounded.set(rate, r); }
    stats.push({ task_id: key, prompt: entry.prompt, n: entry.n, pass_rate: r });
  }
  const trainable: TaskStat[] = [];
  const retired: TaskStat[] = [];
  const notReady: TaskStat[] = [];
  const thin: TaskStat[] = [];
  for (const t of stats) {
    if (t.n < minRollouts) thin.push(t);
    else if (t.pass_rate > solved) retired.push(t);
    else if (t.pass_rate < floor) notReady.push(t);
    else trainable.push(t);
  }
  trainable.sort((a, b) => b.pass_rate - a.pass_rate || (a.task_id < b.task_id ? -1 : a.task_id > b.task_id ? 1 : 0));
  const [lo, hi] = band as [number, number];
  const buckets = Math.max(1, Math.trunc(tiers));
  const tierLists: TaskStat[][] = Array.from({ length: buckets }, () => []);
  const step = trainable.length / buckets;
  trainable.forEach((t, i) => tierLists[Math.min(buckets - 1, Math.trunc(i / step))].push(t));
  return {
    n_tasks: stats.length,
    n_trainable: trainable.length,
    n_solved: retired.length,
    n_not_ready: notReady.length,
    n_thin: thin.length,
    n_in_band: trainable.filter((t) => lo <= t.pass_rate && t.pass_rate <= hi).length,
    thresholds: { solved, floor, band: [lo, hi], min_rollouts: minRollouts },
    schedule: trainable.map((t) => t.task_id),
    trainable,
    retired,
    not_ready: notReady,
    thin,
    tiers: tierLists,
  };
}

/** retire_solved(rows, solved, min_rollouts): the rows minus every solved task's rollouts (thin tasks are kept). */
export function retireSolved(rows: readonly unknown[], options: { solved?: number; min_rollouts?: number } = {}): unknown[] {
  const report = curriculum(rows, { solved: options.solved ?? 0.8, min_rollouts: options.min_rollouts ?? 2 });
  const drop = new Set(report.retired.map((t) => t.task_id));
  return rows.filter((row) => !drop.has(taskKey((isObject(row) ? row : {}) as Row)));
}
