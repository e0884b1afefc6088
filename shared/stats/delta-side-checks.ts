// delta_report side checks: the ceiling, the proxy-vs-target (over-optimization) reading, and unequal k (stats-semantics.md section 8 steps 13h, 13i, 13o).
import { sumsOf, type DeltaSide } from './delta-side';
import { meansOf, taskIndex } from './task-sums';
import { pyFixed, pyPercent, pySigned } from './py-format';
import { VERDICT_WORDS, gainInterval, type MetricEntry } from './delta-types';

const span = (ci: [number, number] | null) => (ci ? `${pySigned(ci[0], 3)}..${pySigned(ci[1], 3)}` : 'n/a');

/** The ceiling line: the before side passes >= ceiling_pass_rate, or few paired tasks (and under half) have room. */
export function ceilingWarning(before: DeltaSide, after: DeltaSide, meanA: number | null, ceilingRate: number): string | null {
  if (meanA !== null && meanA >= ceilingRate) {
    return `The before run already passes ${pyFixed(meanA, 2)} of tasks, so there is little room to measure improvement; use harder situations.`;
  }
  const ma = sumsOf(before, 'pass_at_1');
  const inAfter = meansOf(sumsOf(after, 'pass_at_1')); // the report has read these means already
  let shared = 0;
  let withRoom = 0;
  for (let i = 0; i < ma.keys.length; i++) {
    if (!inAfter.has(ma.keys[i])) continue;
    shared++;
    if (ma.sums[i] / ma.counts[i] < 1) withRoom++;
  }
  if (withRoom < 20 && withRoom < 0.5 * shared) {
    return `The before run already passes ${shared - withRoom} of ${shared} paired tasks every time, so there is little room to measure improvement; use harder situations.`;
  }
  return null;
}

export interface ProxyReading {
  verdict: string | null;
  overOptimized: boolean;
  warning: string | null;
}

/** Proxy vs headline: not measured, the target itself, or moved; over-optimized when the proxy rose and the target did not follow. */
export function proxyCheck(
  proxyName: string | null, proxyKey: string | null, proxy: MetricEntry | null, headline: MetricEntry, headlineKey: string, loud: Set<string>, level: number,
): ProxyReading {
  if (!proxyKey) return { verdict: null, overOptimized: false, warning: null };
  if (!proxy) return { verdict: 'proxy_not_measured', overOptimized: false, warning: `proxy '${proxyName}' is not on both row sets` };
  if (proxyKey === headlineKey) return { verdict: 'proxy_is_target', overOptimized: false, warning: `proxy '${proxyName}' is the target itself; name the training reward instead` };
  const proxyUp = proxy.gain_verdict === 'b_better' && loud.has(proxyKey);
  const targetUp = headline.gain_verdict === 'b_better' && loud.has(headlineKey);
  const pg = gainInterval(proxy.ci95, proxy.lower_is_better);
  const tg = gainInterval(headline.ci95, headline.lower_is_better);
  const apart = Boolean(pg && tg && pg[0] > tg[1]);
  const overOptimized = (proxyUp && !targetUp) || (proxyUp && apart);
  const warning = overOptimized
    ? `OVER-OPTIMIZED: ${proxyKey} ${pySigned(proxy.delta as number, 3)} (${pyPercent(level)} ${span(proxy.ci95)}) while ${headlineKey} ${pySigned(headline.delta ?? 0, 3)} (${pyPercent(level)} ${span(headline.ci95)}): the policy learned something the target does not credit`
    : null;
  return { verdict: VERDICT_WORDS[proxy.gain_verdict], overOptimized, warning };
}

/** Unequal rollouts per task between the sides: how many paired tasks on the short side have fewer rows. */
export function kMismatchWarning(before: DeltaSide, after: DeltaSide, kBefore: number, kAfter: number): string | null {
  if (kAfter === kBefore) return null;
  const [shortSide, fullK] = kAfter < kBefore ? (['after', kBefore] as const) : (['before', kAfter] as const);
  const perTask = (shortSide === 'after' ? after : before).taskRows;
  const other = taskIndex((shortSide === 'after' ? before : after).taskRows);
  let paired = 0;
  let nShort = 0;
  for (let i = 0; i < perTask.keys.length; i++) {
    if (!other.has(perTask.keys[i])) continue;
    paired++;
    if (perTask.counts[i] < fullK) nShort++;
  }
  return `before has k=${kBefore} rollouts per task and after has k=${kAfter}: ${nShort} of ${paired} paired tasks on the ${shortSide} side have fewer than ${fullK} rows; re-run the ${shortSide} side on its short tasks, or balance_rollouts=True to share k=${Math.min(kBefore, kAfter)}.`;
}
