// grounding_report (docs/markers.md "grounding_report"): the share of rollouts whose every argument is grounded, the
// rollouts that called anything, and the invented values that recur most, by tool and key.
import { isObject } from '../keys';
import { pyRound } from '../py-format';
import { toolCallsOf, ungroundedArguments, type GroundingOptions } from './grounding';

export interface GroundingReport {
  rows: number;
  grounded_rate: number | null;
  rows_with_calls: number;
  invented: Array<{ argument: string; rows: number; example: string }>;
}

/** How many invented values to list. */
const TOP_INVENTED = 10;

export function groundingReport(rows: readonly unknown[], options: GroundingOptions = {}): GroundingReport {
  let n = 0;
  let grounded = 0;
  let withCalls = 0;
  // By "tool.key": how many times a value there was invented (each time counts, as the SDK counts), and the first value.
  const offenders = new Map<string, { count: number; example: string }>();
  for (const row of rows) {
    if (!isObject(row)) continue;
    n++;
    if (toolCallsOf(row).length > 0) withCalls++;
    const bad = ungroundedArguments(row, options);
    if (bad.length === 0) grounded++;
    for (const entry of bad) {
      const key = `${entry.tool}.${entry.key}`;
      const found = offenders.get(key);
      if (found) found.count++;
      else offenders.set(key, { count: 1, example: entry.value });
    }
  }
  // Most often first; a stable sort keeps ties in the order they were first seen.
  const top = [...offenders].sort((a, b) => b[1].count - a[1].count).slice(0, TOP_INVENTED);
  return {
    rows: n,
    grounded_rate: n > 0 ? pyRound(grounded / n, 4) : null,
    rows_with_calls: withCalls,
    invented: top.map(([argument, { count, example }]) => ({ argument, rows: count, example })),
  };
}
