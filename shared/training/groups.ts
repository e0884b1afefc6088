// GRPO group identity on exported rows (sdk-semantics §8.3 "Group stamping"): when any task repeats, every row of a
// task gets group_id = sha1(task_key)[:12], k, n0/n1 (rewards below / above 0.5) and the group's reward mean and
// population std. Gathered in a first pass over just the task keys and rewards, so a streamed export stamps row N
// without holding rows N+1... in memory.
import { pyFloat, pyNumber, type PyFloat } from '../schema/py-json';
import { sha1Hex } from '../stats/hash';

export const PASS_THRESHOLD = 0.5;

export interface GroupFields {
  group_id: string;
  k: number;
  n0: number;
  n1: number;
  reward_mean: PyFloat | null;
  reward_std: PyFloat | null;
}

/** A reward as _numeric reads it: a number (not a bool, not NaN), else null. */
export function numericReward(value: unknown): number | null {
  const n = pyNumber(value);
  return n === null || Number.isNaN(n) ? null : n;
}

/** Collects (task, reward) per exported row, in order; `fields` then says what each task's rows carry. */
export class GroupTally {
  private readonly byTask = new Map<string, { k: number; rewards: number[] }>();
  private repeated = false;

  add(task: string, reward: unknown): void {
    if (!task) return; // a row with no task key joins no group
    let group = this.byTask.get(task);
    if (!group) {
      group = { k: 0, rewards: [] };
      this.byTask.set(task, group);
    }
    group.k++;
    if (group.k > 1) this.repeated = true;
    const value = numericReward(reward);
    if (value !== null) group.rewards.push(value);
  }

  /** Whether any task repeats: only then are groups stamped at all. */
  get stamped(): boolean {
    return this.repeated;
  }

  /** The number of distinct groups stamped. */
  get size(): number {
    return this.repeated ? this.byTask.size : 0;
  }

  fields(task: string): GroupFields | null {
    if (!this.repeated || !task) return null;
    const group = this.byTask.get(task);
    if (!group) return null;
    const values = group.rewards;
    let n0 = 0, n1 = 0, sum = 0;
    for (const v of values) {
      if (v < PASS_THRESHOLD) n0++;
      if (v > PASS_THRESHOLD) n1++;
      sum += v;
    }
    const mean = values.length ? sum / values.length : null;
    let std: number | null = null;
    if (mean !== null) {
      let ss = 0;
      for (const v of values) ss += (v - mean) ** 2;
      std = Math.sqrt(ss / values.length);
    }
    return {
      group_id: sha1Hex(task).slice(0, 12),
      k: group.k,
      n0,
      n1,
      reward_mean: mean === null ? null : pyFloat(mean),
      reward_std: std === null ? null : pyFloat(std),
    };
  }
}
