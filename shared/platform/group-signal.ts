// Within-ask contrast of graded groups (the SDK's group_signal, read by the publish gate, platform-api.md §3.5).
import { passAt, type PassAtResult } from '../stats/pass-at';
import { tallyRows, type TaskTally } from '../stats/task-tally';

export interface GroupSignal {
  n_groups: number;
  n_single: number;
  n_mixed: number;
  n_all_zero: number;
  n_all_one: number;
  n_in_band: number;
  mixed_rate: number | null;
  k: number;
  pass_at_1: number | null;
  pass_pow_k: number | null;
  pass_at_k: number | null;
  headroom: number | null;
}

/** A group whose rollouts disagree is signal; within [lo, hi] it is in band. Groups of one cannot mix. */
export function groupSignal(rows: readonly unknown[], lo = 0.2, hi = 0.8): GroupSignal {
  return groupSignalOf(tallyRows(rows), passAt(rows), lo, hi);
}

/** groupSignal from the rows' task tally and their pass_at. */
export function groupSignalOf(tasks: TaskTally, rates: PassAtResult, lo = 0.2, hi = 0.8): GroupSignal {
  let mixed = 0, zero = 0, allOne = 0, single = 0, inBand = 0;
  for (let t = 0; t < tasks.keys.length; t++) {
    if (tasks.counts[t] < 2) { single++; continue; }
    const p = tasks.sums[t] / tasks.counts[t];
    if (p > 0 && p < 1) {
      mixed++;
      if (lo <= p && p <= hi) inBand++;
    } else if (p === 0) zero++;
    else allOne++;
  }
  const multi = mixed + zero + allOne;
  return {
    n_groups: tasks.keys.length, n_single: single, n_mixed: mixed, n_all_zero: zero, n_all_one: allOne, n_in_band: inBand,
    mixed_rate: multi ? mixed / multi : null,
    k: rates.k, pass_at_1: rates.pass_at_1, pass_pow_k: rates.pass_pow_k, pass_at_k: rates.pass_at_k, headroom: rates.headroom,
  };
}
