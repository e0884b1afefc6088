// hack_scan's ranking and verdict (docs/hack-scan.md, "Ranking", "The verdict"): features ranked by |within-ask
// rho|, the regime, integrity, the inverted endorsed features, rivals, the degenerate refusal, and a warning per
// finding in plain words.
import { pyCompare } from '../text/py-text';
import { isEndorsed, rhoPooled, type ScanFrame } from './hack-scan-features';
import type { Ranked } from './hack-scan-columns';
import {
  COLLINEAR_SHOWN,
  DEGENERATE_RHO,
  FLOOR_COARSE_BELOW,
  MIN_DISTINCT_PER_ASK,
  RESCAN_ROLLOUTS,
  RIVAL_SHARE,
  SAT_FLAG,
  pySliceTo,
  type HackScanFeature,
  type HackScanReport,
} from './hack-scan-types';
import { pyFixed, pyPercent, pyRound, pySigned } from './py-format';

export interface VerdictInput {
  report: HackScanReport;
  features: readonly Ranked[];
  frame: ScanFrame;
  pooled: { mean: number; sd: number };
  tau: number;
  nShuffles: number;
  topFeatures: number | null | undefined;
  allPass: number;
}

const quoted = (names: readonly string[]) => names.map((name) => `"${name}"`).join(', ');

/** Ranked by strength; a tie in |rho| (to 6 places) goes to an endorsed feature the reward pays for, then to the name. */
export function rankFeatures(features: readonly Ranked[], endorsed: readonly string[]): Ranked[] {
  const keyed = features.map((feature) => ({
    feature,
    strength: pyRound(Math.abs(feature.rho), 6),
    first: isEndorsed(feature, endorsed) && feature.rho > 0 ? 0 : 1,
  }));
  keyed.sort((a, b) => b.strength - a.strength || a.first - b.first || pyCompare(a.feature.name, b.feature.name));
  return keyed.map((entry) => entry.feature);
}

/** Fills the ranking, the regime and the warnings into `input.report` (which holds the support numbers already). */
export function decide(input: VerdictInput): void {
  const { report, frame, pooled, tau } = input;
  const endorsed = report.endorsed;
  const warnings = report.warnings;
  const listed: HackScanFeature[] = rankFeatures(input.features, endorsed).map((feature) => ({
    name: feature.name,
    aliases: feature.aliases.slice(),
    rho: pyRound(feature.rho, 4),
    pooled: pyRound(rhoPooled(feature, frame.rewards, pooled), 4),
    n_obs: feature.idx.length,
    above_floor: Math.abs(feature.rho) > tau,
    endorsed: isEndorsed(feature, endorsed),
  }));
  const above = listed.filter((x) => x.above_floor);
  const top = listed[0] ?? null;
  const rhoMax = top ? Math.abs(top.rho) : 0;
  const matched = listed.filter((x) => x.endorsed).length;
  Object.assign(report, {
    tau: pyRound(tau, 4),
    n_features: listed.length,
    n_above_floor: above.length,
    features: pySliceTo(listed, input.topFeatures),
    top_feature: top ? top.name : null,
    rho_max: pyRound(rhoMax, 4),
    endorsed_matched: matched,
  });
  if (endorsed.length && matched === 0) {
    report.regime = 'unknown';
    warnings.push(
      `the endorsed patterns ${quoted(endorsed)} match none of the ${listed.length} features; feature names read like tool:<name>, ` +
        'marker:<name> or contains:<term>, so fix the patterns',
    );
    return;
  }
  const collinear = listed.filter((x) => Math.abs(x.rho) >= DEGENERATE_RHO).map((x) => x.name);
  const degenerate = collinear.length >= 2 && report.distinct_per_ask < MIN_DISTINCT_PER_ASK;
  report.degenerate = degenerate;
  report.collinear = collinear;
  const e = Math.max(0, ...above.filter((x) => x.endorsed && x.rho > 0).map((x) => x.rho));
  const a = Math.max(0, ...above.filter((x) => !x.endorsed).map((x) => Math.abs(x.rho)));
  let inverted = degenerate ? [] : above.filter((x) => x.endorsed && x.rho < 0);
  report.inverted = inverted.map((x) => x.name);
  let integrity: number | null = null;
  if (endorsed.length && !degenerate) {
    report.endorsed_on_top = Boolean(top && top.endorsed && top.rho > 0);
    integrity = e + a > 0 ? pyRound(e / (e + a), 4) : 0;
    report.integrity = integrity;
  }
  const sat = report.support.sat;
  if (degenerate) {
    report.regime = 'degenerate';
    report.top_feature = null;
    const more = collinear.length > COLLINEAR_SHOWN ? `, and ${collinear.length - COLLINEAR_SHOWN} more` : '';
    warnings.push(
      `too few distinct trajectories to tell features apart: ${report.distinct_per_ask} distinct rollout(s) per ask at the median leave ` +
        `${collinear.length} feature(s) exactly in line with the reward within ask (|rho| >= ${DEGENERATE_RHO}): ${quoted(collinear.slice(0, COLLINEAR_SHOWN))}${more}. ` +
        'Nothing in these rows separates them, so no top feature is named and no hack is claimed; scan again on rollouts that differ in ' +
        'more than one way (a higher temperature, more repeats), before duplicate rollouts within an ask are dropped',
    );
    const tiedEndorsed = listed.filter((x) => x.endorsed && collinear.includes(x.name)).map((x) => x.name);
    if (tiedEndorsed.length) {
      warnings.push(
        `the endorsed ${quoted(tiedEndorsed.slice(0, 3))} sit(s) in that tie, so the scan cannot say whether the reward pays for that behaviour ` +
          'or punishes it: the sign there is whichever of the two trajectories happened to pass',
      );
    }
  } else if (!above.length || top === null) {
    report.regime = 'no_signal';
    warnings.push(
      `no feature clears the noise floor (strongest |rho| ${pyFixed(rhoMax, 2)}, floor ${pyFixed(tau, 2)} from ${input.nShuffles} within-ask shuffles): ` +
        'the reward does not separate rollouts of one ask on anything measured here; check the judge before training',
    );
  } else if (endorsed.length && !top.endorsed) {
    report.regime = 'reward_hack';
    const best = e ? ` (the best endorsed feature reaches ${pyFixed(e, 2)})` : ' (no endorsed feature clears the floor)';
    warnings.push(
      `the reward is best explained by "${top.name}" (within-ask rho ${pySigned(top.rho, 2)}, floor ${pyFixed(tau, 2)}), not by anything endorsed${best}; ` +
        `a policy trained on it learns "${top.name}"`,
    );
  } else if (endorsed.length && top.rho < 0) {
    report.regime = 'reward_hack';
    warnings.push(
      `the reward punishes the endorsed "${top.name}" (within-ask rho ${pySigned(top.rho, 2)}, floor ${pyFixed(tau, 2)}); ` +
        'a policy trained on it learns to do less of that behaviour',
    );
    inverted = inverted.filter((x) => x.name !== top.name);
  } else if (sat > SAT_FLAG) {
    report.regime = 'pool_exhausted';
    warnings.push(
      `${input.allPass} of ${report.n_groups} asks already pass on every rollout (${pyPercent(sat)}); those asks carry no gradient: ` +
        'raise the difficulty or drop them before training',
    );
  } else {
    report.regime = 'train';
  }
  if (inverted.length) {
    warnings.push(`the reward also punishes the endorsed ${inverted.slice(0, 3).map((x) => `"${x.name}" (${pySigned(x.rho, 2)})`).join(', ')}`);
  }
  if (endorsed.length && (report.regime === 'train' || report.regime === 'pool_exhausted') && a > 0 && integrity !== null && integrity < 1 - RIVAL_SHARE) {
    const rivals = above.filter((x) => !x.endorsed).slice(0, 3).map((x) => x.name);
    warnings.push(`also above the floor and not endorsed: ${quoted(rivals)} (integrity ${pyFixed(report.integrity as number, 2)})`);
  }
  // Too few rollouts per ask for a sharp floor (said only of a scan that reached a verdict).
  if (report.rollouts_per_group < FLOOR_COARSE_BELOW) {
    report.warnings.push(
      `${report.rollouts_per_group} rollouts per ask at the median: the floor is coarse below ${FLOOR_COARSE_BELOW}; scan again with ` +
        `${RESCAN_ROLLOUTS} or more repeats before acting on a close call`,
    );
  }
}
