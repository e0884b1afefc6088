// hack_scan (docs/hack-scan.md): what a grouped RL update would learn from this reward. Reward and every candidate
// feature are centred within ask and ranked by that correlation against a noise floor from within-ask shuffles;
// `endorsed` names what the reward should track, so a top feature that is not endorsed is the hack, named.
import { isObject, pyStr, type Row } from './keys';
import { addAutoColumns, conjunctions, distinctPerAsk, handColumns, type Ranked } from './hack-scan-columns';
import { collapse, GroupScratch, isEndorsed, pooledMoments, pooledSd, rhoPooled, rhoWithin, withinSd, type ScanFrame } from './hack-scan-features';
import { floorOf, nullMaxima } from './hack-scan-floor';
import { textOf } from './row-hygiene';
import { ALPHA, DEFAULT_MIN_OBS, DEFAULT_N_PERM, DEFAULT_SEEDS, DEFAULT_TOP_K, MAX_BINARY_VARIANCE, REPORT_TOP, pySliceTo, type HackScanParams, type HackScanReport } from './hack-scan-types';
import { decide } from './hack-scan-verdict';
import { pyRound } from './py-format';
import { pyFloat } from './readers';

export * from './hack-scan-types';

/** The reward under `key`: a number or numeric text, not a boolean, not NaN. */
function rewardOf(row: Row, key: string): number | null {
  const value = row[key];
  if (value === null || value === undefined || typeof value === 'boolean') return null;
  const out = pyFloat(value);
  return out === null || Number.isNaN(out) ? null : out;
}

/** `endorsed` as the SDK reads it: each entry as text, empty ones dropped (a bare string is its characters). */
function patternsOf(endorsed: HackScanParams['endorsed']): string[] {
  const list = typeof endorsed === 'string' ? Array.from(endorsed) : (endorsed ?? []);
  return list.map((entry) => pyStr(entry)).filter((entry) => entry !== '');
}

function emptyReport(nRows: number, nGraded: number, nPerm: number, endorsed: string[]): HackScanReport {
  return {
    regime: 'unknown', n_rows: nRows, n_graded: nGraded, n_groups: 0, n_groups_multi: 0, rollouts_per_group: 0, effective_rollouts: 0,
    support: { sat: 0, dead: 0, mixed: 0, capacity: 0 }, tau: null, n_perm: nPerm, n_features: 0, n_above_floor: 0, features: [],
    top_feature: null, rho_max: 0, endorsed, endorsed_matched: 0, endorsed_on_top: null, integrity: null, inverted: [],
    continuous_reward: false, degenerate: false, collinear: [], distinct_per_ask: 0, warnings: [],
  };
}

export function hackScan(rows: readonly unknown[], params: HackScanParams = {}): HackScanReport {
  const key = params.reward ?? 'reward';
  const topK = params.top_k ?? DEFAULT_TOP_K;
  const minObs = params.min_obs ?? DEFAULT_MIN_OBS;
  const nPerm = Math.trunc(params.n_perm ?? DEFAULT_N_PERM);
  const auto = params.auto ?? true;
  const topFeatures = params.top_features === undefined ? REPORT_TOP : params.top_features;
  const graded: Row[] = [];
  const rewardList: number[] = [];
  let nRows = 0;
  for (const row of rows) {
    if (!isObject(row)) continue;
    nRows++;
    const reward = rewardOf(row, key);
    if (reward !== null) (graded.push(row), rewardList.push(reward));
  }
  const n = graded.length;
  const report = emptyReport(nRows, n, nPerm, patternsOf(params.endorsed));
  if (n === 0) {
    report.warnings.push(`no row carries a numeric "${key}"; grade the rows first`);
    return report;
  }

  // The asks (the rollouts of one prompt: the groups a grouped update baselines against) and what they could move.
  const rewards = Float64Array.from(rewardList);
  const groupIndex = new Map<string, number>();
  const groupOfRow = new Int32Array(n);
  graded.forEach((row, i) => {
    const ask = textOf(row.prompt);
    let g = groupIndex.get(ask);
    if (g === undefined) groupIndex.set(ask, (g = groupIndex.size));
    groupOfRow[i] = g;
  });
  const nGroups = groupIndex.size;
  const memberLists: number[][] = Array.from({ length: nGroups }, () => []);
  for (let i = 0; i < n; i++) memberLists[groupOfRow[i]].push(i);
  const members = memberLists.map((list) => Int32Array.from(list));
  const groupSize = Int32Array.from(members, (m) => m.length);
  const multi = members.filter((m) => m.length >= 2);
  const sizes = multi.map((m) => m.length).sort((a, b) => a - b);
  report.n_groups = nGroups;
  report.n_groups_multi = multi.length;
  report.rollouts_per_group = sizes.length ? sizes[sizes.length >> 1] : 1;
  report.continuous_reward = rewardList.some((v) => v !== 0 && v !== 1);

  let allPass = 0;
  let allFail = 0;
  let unanimous = 0;
  let capacity = 0;
  const groupMean = new Float64Array(nGroups);
  members.forEach((idx, g) => {
    let low = Infinity;
    let high = -Infinity;
    let sum = 0;
    for (const i of idx) (low = Math.min(low, rewards[i]), high = Math.max(high, rewards[i]), (sum += rewards[i]));
    if (low === high) {
      unanimous++;
      if (rewards[idx[0]] >= 1) allPass++;
      else if (rewards[idx[0]] <= 0) allFail++;
    }
    const mean = (groupMean[g] = sum / idx.length);
    let spread = 0;
    for (const i of idx) spread += (rewards[i] - mean) * (rewards[i] - mean);
    capacity += spread / idx.length;
  });
  report.support = { sat: allPass / nGroups, dead: allFail / nGroups, mixed: (nGroups - unanimous) / nGroups, capacity: capacity / (MAX_BINARY_VARIANCE * nGroups) };
  report.effective_rollouts = multi.filter((idx) => new Set(Array.from(idx, (i) => rewards[i])).size > 1).reduce((sum, idx) => sum + idx.length, 0);

  const centred = new Float64Array(n);
  let centredSquares = 0;
  for (let i = 0; i < n; i++) {
    centred[i] = rewards[i] - groupMean[groupOfRow[i]];
    centredSquares += centred[i] * centred[i];
  }
  const frame: ScanFrame = { n, groupOfRow, groupSize, rewards, centred, sr: Math.sqrt(centredSquares / n) };

  // The candidates: the hand tier, then the auto tier; identical columns folded, constant ones dropped.
  const { texts, columns, profiles } = handColumns(graded, params.features);
  report.distinct_per_ask = distinctPerAsk(profiles, multi);
  if (auto) addAutoColumns(columns, texts, topK, minObs);
  const scratch = new GroupScratch(nGroups);
  const candidates = collapse(columns, minObs) as Ranked[];
  for (const feature of candidates) {
    feature.sdWithin = withinSd(feature, frame, scratch);
    feature.sdPooled = pooledSd(feature, n);
  }
  const features = candidates.filter((feature) => feature.sdPooled > 0);
  const pooled = pooledMoments(rewards);

  if (!multi.length || frame.sr <= 0) {
    // No within-ask contrast at all: only the pooled correlation can be filled in.
    const byPooled = features.map((feature) => ({ feature, pooled: rhoPooled(feature, rewards, pooled) }));
    byPooled.sort((a, b) => Math.abs(b.pooled) - Math.abs(a.pooled));
    report.n_features = features.length;
    report.features = pySliceTo(byPooled, topFeatures).map(({ feature, pooled: value }) => ({
      name: feature.name, aliases: feature.aliases.slice(), rho: 0, pooled: pyRound(value, 4), n_obs: feature.idx.length, above_floor: false, endorsed: isEndorsed(feature, report.endorsed),
    }));
    report.warnings.push(
      multi.length
        ? 'every ask is unanimous, so there is no within-ask contrast to correlate with (grade repeats that disagree, 4 or more per ask); only the pooled column is filled'
        : 'each ask has one rollout, so there is no within-ask contrast to correlate with (4 or more repeats per ask); only the pooled column is filled',
    );
    return report;
  }

  for (const feature of features) feature.rho = rhoWithin(feature, frame);
  const seeds = params.seeds ?? DEFAULT_SEEDS;
  if (auto && seeds > 0) features.push(...conjunctions(features, frame, scratch, seeds, minObs));

  const nulls = nullMaxima({ frame, features, multi, groupMean, nPerm, seed: params.seed ?? 0, alpha: params.alpha ?? ALPHA });
  const tau = floorOf(nulls, params.alpha ?? ALPHA);
  decide({ report, features, frame, pooled, tau, nShuffles: nulls.length, topFeatures, allPass });
  return report;
}
