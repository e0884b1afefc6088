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

/** What an exporter asks of the groups: the fields a task's rows carry, or null (no group stamped). */
export interface GroupLookup {
  fields(task: string): GroupFields | null;
}

/** A lookup made from fields computed elsewhere (a worker thread gets the main thread's, task by task). */
export class GroupFieldsMap implements GroupLookup {
  constructor(private readonly byTask: Map<string, GroupFields>) {}
  fields(task: string): GroupFields | null {
    const found = this.byTask.get(task);
    return found ? { ...found } : null;
  }
}

/** Collects (task, reward) per exported row, in order; `fields` then says what each task's rows carry. */
export class GroupTally implements GroupLookup {
  private readonly byTask = new Map<string, { k: number; rewards: number[]; fields?: GroupFields }>();
  private repeated = false;

  /** Adds the next exported row; call every add before the first `fields` (those are kept once computed). */
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

  /** Every task's fields (to hand another thread). */
  allFields(): Map<string, GroupFields> {
    const out = new Map<string, GroupFields>();
    if (!this.repeated) return out;
    for (const task of this.byTask.keys()) {
      const f = this.fields(task);
      if (f) out.set(task, f);
    }
    return out;
  }

  fields(task: string): GroupFields | null {
    if (!this.repeated || !task) return null;
    const group = this.byTask.get(task);
    if (!group) return null;
    if (group.fields) return { ...group.fields };
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
    group.fields = {
      group_id: sha1Hex(task).slice(0, 12),
      k: group.k,
      n0,
      n1,
      reward_mean: mean === null ? null : pyFloat(mean),
      reward_std: std === null ? null : pyFloat(std),
    };
    return { ...group.fields };
  }
}
