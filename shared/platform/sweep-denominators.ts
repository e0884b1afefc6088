// Same denominators: every arm must carry the first arm's graded rows per ask (platform-api.md §6 "Same denominators").
import { StatsValueError } from '../stats/errors';
import { isObject, taskKey } from '../stats/keys';

/** Graded rows (reward not null) per task_key, in first-seen order. */
export function gradedPerAsk(rows: readonly unknown[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const row of rows) {
    if (!isObject(row) || row.reward === null || row.reward === undefined) continue;
    const key = taskKey(row);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);

/**
 * Refuses an arm (or a noise re-run) whose graded rows per ask differ from the first arm's, by name, with both totals,
 * both ask counts, how many asks differ and the first one. A judge error (reward null) or a dropped rollout causes it.
 */
export function checkSameDenominators(firstLabel: string, first: Map<string, number>, label: string, other: Map<string, number>): void {
  const keys = [...first.keys(), ...[...other.keys()].filter((k) => !first.has(k))];
  const differing = keys.filter((k) => (first.get(k) ?? 0) !== (other.get(k) ?? 0));
  if (!differing.length) return;
  const ask = differing[0];
  throw new StatsValueError(
    `${label} has ${total(other)} graded rows on ${other.size} asks, ${firstLabel} has ${total(first)} on ${first.size}; ` +
      `${differing.length} ask(s) differ, first "${ask}" (${other.get(ask) ?? 0} vs ${first.get(ask) ?? 0}). ` +
      'Arms are compared on the same graded rows per ask: re-grade the rows the judge left unscored, or re-run the dropped rollouts.',
  );
}
