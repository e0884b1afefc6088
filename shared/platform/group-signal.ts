// Within-ask contrast of graded groups (the SDK's group_signal, read by the publish gate, platform-api.md §3.5).
import { groupLabels, passAt, type PassAtResult } from '../stats/pass-at';

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
  return groupSignalOf(groupLabels(rows), passAt(rows), lo, hi);
}

/** groupSignal from the rows' groups (groupLabels) and their pass_at. */
export function groupSignalOf(groups: Map<string, readonly number[]>, rates: PassAtResult, lo = 0.2, hi = 0.8): GroupSignal {
  let mixed = 0, zero = 0, allOne = 0, single = 0, inBand = 0;
  for (const labels of groups.values()) {
    if (labels.length < 2) { single++; continue; }
    const p = labels.reduce((a, b) => a + b, 0) / labels.length;
    if (p > 0 && p < 1) {
      mixed++;
      if (lo <= p && p <= hi) inBand++;
    } else if (p === 0) zero++;
    else allOne++;
  }
  const multi = mixed + zero + allOne;
  return {
    n_groups: groups.size, n_single: single, n_mixed: mixed, n_all_zero: zero, n_all_one: allOne, n_in_band: inBand,
    mixed_rate: multi ? mixed / multi : null,
    k: rates.k, pass_at_1: rates.pass_at_1, pass_pow_k: rates.pass_pow_k, pass_at_k: rates.pass_at_k, headroom: rates.headroom,
  };
}
