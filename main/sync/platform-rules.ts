// The two platform rules a push needs: the holdout split by task (platform-api §3.3) and the publish gate's
// refusals (§3.5). The "platform" helper is writing both as shared/platform (holdoutSplit, publishGate); until
// that is on main, push calls them through this small interface, and this file holds a local stand-in:
// the split exactly as §3.3 says, and the gate's two refusals. The gate's calibration stamps and its report
// beyond `refusal` come with shared/platform; swap `localRules` for it then.
import { createHash } from 'node:crypto';
import { taskKey } from '../../shared/stats/keys';

export type Side = 'train' | 'holdout';

export interface GateReport {
  ok: boolean;
  rl_shaped: boolean;
  n_rows: number;
  n_tasks: number;
  n_graded: number;
  refusal: string | null;
}

/** A streaming gate: rows are fed one by one (a 100k-row set is never held whole), then judged. */
export interface GateScan {
  add(row: Record<string, unknown>): void;
  finish(): GateReport;
}

export interface PushRules {
  /** Which side of a holdout split of `fraction` the row's task lands on; the same task always lands the same. */
  holdoutSide(row: Record<string, unknown>, fraction: number): Side;
  gate(mode: string | undefined): GateScan;
}

const BUCKETS = 16 ** 8 - 1;

function holdoutSide(row: Record<string, unknown>, fraction: number): Side {
  const digest = createHash('sha256').update(taskKey(row), 'utf8').digest('hex');
  return parseInt(digest.slice(0, 8), 16) / BUCKETS < fraction ? 'holdout' : 'train';
}

function binaryReward(row: Record<string, unknown>): 0 | 1 | undefined {
  const reward = row.reward;
  return reward === 0 || reward === 1 ? reward : undefined;
}

function gate(mode: string | undefined): GateScan {
  const tasks = new Map<string, { rows: number; pass: number; fail: number }>();
  let rows = 0;
  let graded = 0;
  return {
    add(row) {
      rows++;
      const key = taskKey(row);
      const task = tasks.get(key) ?? { rows: 0, pass: 0, fail: 0 };
      task.rows++;
      const reward = binaryReward(row);
      if (reward !== undefined) {
        graded++;
        if (reward === 1) task.pass++;
        else task.fail++;
      }
      tasks.set(key, task);
    },
    finish() {
      const rlShaped = mode?.toLowerCase() === 'rl' || [...tasks.values()].some((task) => task.rows > 1);
      let refusal: string | null = null;
      if (rlShaped && graded === 0) refusal = 'ungraded_rl_rows: the set is RL-shaped (tasks repeat) but no row has a 0/1 reward; grade it first';
      else if (rlShaped && ![...tasks.values()].some((task) => task.pass > 0 && task.fail > 0)) {
        refusal = 'no_mixed_groups: the set is RL-shaped but no task has both a pass and a fail, so it carries no learning signal';
      }
      return { ok: refusal === null, rl_shaped: rlShaped, n_rows: rows, n_tasks: tasks.size, n_graded: graded, refusal };
    },
  };
}

export const localRules: PushRules = { holdoutSide, gate };
