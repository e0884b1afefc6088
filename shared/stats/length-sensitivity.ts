// length_sensitivity: judge pass rate on short vs long replies within each gold label (stats-semantics §13.2).
import type { Row } from './keys';
import { trustLabel } from './readers';
import { normCdf } from './normal';
import { replyLength } from '../schema/conversation';

/** LENGTH_MIN_ROWS_PER_LABEL = 6: rows of one gold label before the short/long split is read. */
export const LENGTH_MIN_ROWS_PER_LABEL = 6;
export const LENGTH_GAP_FLAG = 0.15;
const ALPHA = 0.05;

export type LengthSide =
  | { n: number; note: string }
  | { n: number; median_chars: number; judge_pass_short: number; judge_pass_long: number; gap_long_minus_short: number; p_value: number };

export interface LengthSensitivity {
  gold_1: LengthSide;
  gold_0: LengthSide;
  max_gap: number;
  flagged: boolean;
}

/**
 * For gold 1 then gold 0: split at the upper median of reply_length, compare judge pass rates, two-proportion
 * z test; flags when |gap| >= length_gap_flag and p < alpha/2. `lengths` may carry precomputed reply lengths.
 */
export function lengthSensitivity(
  labeled: readonly Row[],
  options: { gold?: string; length_gap_flag?: number; lengths?: Map<Row, number> } = {},
): LengthSensitivity {
  const gold = options.gold ?? 'gold_reward';
  const flag = options.length_gap_flag ?? LENGTH_GAP_FLAG;
  const lengthOf = (r: Row) => options.lengths?.get(r) ?? replyLength(r);
  const out: Partial<LengthSensitivity> = {};
  let maxGap = 0;
  let flagged = false;
  for (const label of [1, 0] as const) {
    const key = label === 1 ? 'gold_1' : 'gold_0';
    const rows = labeled.filter((r) => trustLabel(r[gold]) === label);
    if (rows.length < LENGTH_MIN_ROWS_PER_LABEL) {
      out[key] = { n: rows.length, note: 'too few rows' };
      continue;
    }
    const lens = rows.map(lengthOf);
    const sorted = Float64Array.from(lens).sort();
    const median = sorted[Math.trunc(sorted.length / 2)];
    let nShort = 0;
    let nLong = 0;
    let passShort = 0;
    let passLong = 0;
    for (let i = 0; i < rows.length; i++) {
      const pass = trustLabel(rows[i].reward) ?? 0;
      if (lens[i] < median) { nShort++; passShort += pass; } else { nLong++; passLong += pass; }
    }
    if (!nShort || !nLong) {
      out[key] = { n: rows.length, note: 'no length spread' };
      continue;
    }
    const rateS = passShort / nShort;
    const rateL = passLong / nLong;
    const gap = rateL - rateS;
    maxGap = Math.max(maxGap, Math.abs(gap));
    const pooled = (rateS * nShort + rateL * nLong) / rows.length;
    const se = Math.sqrt(pooled * (1 - pooled) * (1 / nShort + 1 / nLong));
    const pValue = se ? 2 * (1 - normCdf(Math.abs(gap) / se)) : gap ? 0.0 : 1.0;
    flagged = flagged || (Math.abs(gap) >= flag && pValue < ALPHA / 2);
    out[key] = { n: rows.length, median_chars: median, judge_pass_short: rateS, judge_pass_long: rateL, gap_long_minus_short: gap, p_value: pValue };
  }
  out.max_gap = maxGap;
  out.flagged = flagged;
  return out as LengthSensitivity;
}
