// delta_report(before, after, ...): the gate over pass@1 and markers, with floors, guards and comparability checks (stats-semantics.md section 8).
import { compareTaskMeans } from './compare-runs';
import { configChecks, type CheckState } from './delta-checks';
import { deltaPlan, deltaSideOf, groupingName, sumsOf, type DeltaSide } from './delta-side';
import { bandRule, distinctEvalRuns, runStdFloors } from './delta-noise';
import { byGroup, detectSliceKey, flagSlices, sliceMinTasks, type GroupEntry, type Grouper } from './delta-slices';
import { ceilingWarning, kMismatchWarning, proxyCheck } from './delta-side-checks';
import { deltaSizing, sizingWarning } from './delta-sizing';
import { balanceRollouts, trainArms, trainSpread, trainWord, UNRESOLVED_LINE, type Balanced, type TrainSpread } from './delta-train';
import { LOWER_IS_BETTER_MARKERS, VERDICT_WORDS, metricKey, type DeltaOptions, type GainVerdict, type MetricEntry, type TargetWord } from './delta-types';
import { StatsValueError } from './errors';
import { passAtConfigOf } from './pass-at';
import { pyFixed, pyPercent, pyRound, pySigned } from './py-format';
import { codePointCompare } from './task-order';
import { meansOf } from './task-sums';
import { tQuantile, zAt } from './t-dist';
import { meanOfTasks } from './variance';

export type { DeltaOptions } from './delta-types';

function directions(metrics: string[], option: DeltaOptions['lower_is_better']): Record<string, boolean> {
  let asked: Record<string, boolean> = {};
  if (option !== null && option !== undefined) {
    const items: Array<[string, boolean]> = Array.isArray(option) ? option.map((n) => [String(n), true]) : Object.entries(option).map(([n, v]) => [n, Boolean(v)]);
    const missing = [...new Set(items.map(([n]) => n).filter((n) => !metrics.includes(metricKey(n))))].sort(codePointCompare);
    if (missing.length) {
      throw new StatsValueError(`delta_report: lower_is_better names ${missing.map((n) => `'${n}'`).join(', ')}, not measured on both row sets (measured: ${[...metrics].sort(codePointCompare).join(', ')}); stamp the marker on both arms or drop the name`);
    }
    asked = Object.fromEntries(items.map(([n, v]) => [metricKey(n), v]));
  }
  const defaults = new Set(LOWER_IS_BETTER_MARKERS.map(metricKey));
  return Object.fromEntries(metrics.map((m) => [m, m in asked ? asked[m] : defaults.has(m)]));
}

/** metric_summary(rows, metric).degenerate: every applicable row (rounded to 9 decimals) holds one value. */
function degenerateSide(side: DeltaSide, metric: string): boolean {
  const seen = side.values.get(metric);
  return seen !== undefined && seen.count > 0 && !seen.several;
}

const flip = (v: GainVerdict, lower: boolean): GainVerdict => (!lower ? v : v === 'b_better' ? 'a_better' : v === 'a_better' ? 'b_better' : v);
const span = (ci: [number, number] | null) => (ci ? `${pySigned(ci[0], 3)}..${pySigned(ci[1], 3)}` : 'n/a');

function verdictWord(r: MetricEntry, replicated: boolean): TargetWord {
  const word = VERDICT_WORDS[r.gain_verdict];
  if (r.within_noise && (word === 'moved' || word === 'moved_the_wrong_way')) return 'within_eval_noise';
  if (word === 'moved' && !replicated) return 'moved_unreplicated';
  return word;
}

/** The options checked and defaulted, before any row is read. */
function settings(options: DeltaOptions) {
  const alpha = options.alpha ?? 0.05;
  const power = options.power ?? 0.8;
  if (!(alpha > 0 && alpha < 1) || !(power > 0 && power < 1)) throw new StatsValueError(`delta_report: alpha and power are probabilities strictly between 0 and 1 (got alpha=${alpha}, power=${power})`);
  let runStdRuns = options.run_std_runs ?? null;
  if (runStdRuns !== null) {
    if (options.run_std === null || options.run_std === undefined) throw new StatsValueError('delta_report: run_std_runs says how many re-runs run_std came from; pass run_std with it');
    if (!(Math.trunc(runStdRuns) >= 2)) throw new StatsValueError(`delta_report: run_std_runs is the number of re-runs run_std was computed from, at least 2 (got ${runStdRuns})`);
    runStdRuns = Math.trunc(runStdRuns);
  }
  return {
    alpha, power, runStdRuns, level: 1 - alpha, arms: trainArms(options.train_runs),
    nBoot: options.n_boot ?? 2000, seed: options.seed ?? 0, ceilingRate: options.ceiling_pass_rate ?? 0.9,
  };
}

/** delta_report(before, after, ...) on two row sets. */
export function deltaReport(beforeIn: readonly unknown[], afterIn: readonly unknown[], options: DeltaOptions = {}) {
  const { seed } = settings(options);
  let before = beforeIn;
  let after = afterIn;
  let balanced: Balanced | null = null;
  if (options.balance_rollouts) ({ before, after, balanced } = balanceRollouts(beforeIn, afterIn, seed));
  const plan = deltaPlan(options);
  return deltaReportOfSides(deltaSideOf(before, plan), deltaSideOf(after, plan), options, balanced);
}

/**
 * delta_report from each side's fold (delta-side.ts, folded with deltaPlan(options)): what deltaReport gives on their
 * rows. balance_rollouts trims rows of both sides together, so its sides are folded after it (`balanced` says what
 * it dropped); every other option is read here.
 */
export function deltaReportOfSides(before: DeltaSide, after: DeltaSide, options: DeltaOptions = {}, balanced: Balanced | null = null) {
  const { alpha, power, runStdRuns, level, arms, nBoot, seed, ceilingRate } = settings(options);

  const names = options.markers ? [...options.markers] : [...before.markerNames].filter((n) => after.markerNames.has(n)).sort(codePointCompare);
  const metricKeys = ['pass_at_1', ...names.map((m) => `marker:${m}`)];
  const results: Record<string, MetricEntry> = {};
  metricKeys.forEach((m, i) => {
    results[m] = compareTaskMeans(meansOf(sumsOf(before, m)), meansOf(sumsOf(after, m)), { metric: m, n_boot: nBoot, seed: seed + i, level }) as MetricEntry;
  });
  const lower = directions(metricKeys, options.lower_is_better);
  for (const m of metricKeys) {
    results[m].lower_is_better = lower[m];
    results[m].gain_verdict = flip(results[m].verdict, lower[m]);
  }
  const mnr = options.must_not_regress ?? [];
  const guarded = new Set((Array.isArray(mnr) ? mnr : Object.keys(mnr)).map((m) => metricKey(String(m))));
  const targetKey = options.target ? metricKey(options.target) : null;
  const degenerateGuards = [...guarded].sort(codePointCompare).filter((m) => m in results && degenerateSide(before, m) && degenerateSide(after, m));

  const evalRuns = {
    before: Math.max(distinctEvalRuns(before), arms?.before?.length ?? 0),
    after: Math.max(distinctEvalRuns(after), arms?.after?.length ?? 0),
  };
  const floors = runStdFloors(before, after, metricKeys, options.run_std, evalRuns);
  const source = floors.source;
  const headlineMetric = targetKey !== null && targetKey in results ? targetKey : 'pass_at_1';
  const headlineFloor = floors.byMetric[headlineMetric] ?? null;
  const replicated = headlineFloor !== null;
  const band = bandRule(source, evalRuns, runStdRuns, level);
  const withinNoise: string[] = [];
  const noFloor: string[] = [];
  for (const m of metricKeys) {
    const r = results[m];
    const floor = floors.byMetric[m] ?? null;
    r.run_std = floor;
    r.noise_band = band.bandFor(floor);
    if (source !== null && floor === null) {
      r.noise_note = 'no_replicate_floor';
      noFloor.push(m);
    }
    r.within_noise = r.noise_band !== null && r.delta !== null && Math.abs(r.delta) < r.noise_band;
    if (r.within_noise) withinNoise.push(m);
  }
  const loud = new Set(metricKeys.filter((m) => !results[m].within_noise));
  const regressions = metricKeys.filter((m) => guarded.has(m) && loud.has(m) && results[m].gain_verdict === 'a_better');
  const slipped = metricKeys.filter((m) => !guarded.has(m) && loud.has(m) && results[m].gain_verdict === 'a_better');
  const improved = metricKeys.filter((m) => loud.has(m) && results[m].gain_verdict === 'b_better');
  const targetResult = targetKey !== null ? results[targetKey] ?? null : null;
  let targetVerdict: TargetWord | null = targetResult === null ? (targetKey ? 'target_not_measured' : null) : verdictWord(targetResult, replicated);
  const warnings: string[] = [];
  const notComparable: string[] = [];
  const headline = targetResult ?? results.pass_at_1;
  const headlineKey = targetResult ? (targetKey as string) : 'pass_at_1';
  const sideMean = (side: DeltaSide) => meanOfTasks(meansOf(sumsOf(side, headlineMetric)));
  const train: TrainSpread | null = arms ? trainSpread(arms, { before: sideMean(before), after: sideMean(after) }, headlineMetric, headline.ci95, level) : null;
  let gateVerdict: TargetWord | null;
  [gateVerdict, targetVerdict] = trainWord(targetVerdict, train);
  const state: CheckState = { ok: regressions.length === 0 && gateVerdict !== 'moved_the_wrong_way', notComparable, warnings };

  // a. training seeds
  if (train?.under_replicated) {
    const seeds = (['before', 'after'] as const).map((s) => `${train.counts[s] === null ? 'untrained' : train.counts[s]} ${s}`).join(', ');
    warnings.push(`UNRESOLVED: ${UNRESOLVED_LINE} (training seeds: ${seeds}); train each arm at 2 or more seeds and pass every seed's rows in train_runs=.`);
  } else if (train?.ci95) {
    const [lo, hi] = train.ci95;
    if (lo <= 0 && 0 <= hi && headline.delta !== null) {
      warnings.push(`${headlineMetric}: ${pySigned(headline.delta, 3)} on this seed pair, but across training seeds ${pySigned(train.delta as number, 3)} with interval ${pySigned(lo, 3)}..${pySigned(hi, 3)} covers zero; the change does not survive the seed spread`);
    }
  }
  // b. one eval run
  if (targetVerdict === 'moved_unreplicated' && !noFloor.includes(headlineMetric)) {
    const single = (['before', 'after'] as const).filter((s) => evalRuns[s] < 2);
    if (single.length) {
      const where = single.length !== 1 ? 'each side' : `the ${single[0]} side`;
      warnings.push(`One eval run on ${where}, so this could be noise. Run each side three times and the report will say.`);
    } else {
      warnings.push(`${band.nA} runs before and ${band.nB} after but no re-run floor, so this could be noise; pass run_std= with run_std_runs=.`);
    }
  }
  // c-f. floors
  if (noFloor.length) warnings.push(`no re-run floor for ${noFloor.join(', ')}: its verdict rests on the task interval alone`);
  for (const m of degenerateGuards) warnings.push(`must_not_regress ${m} is degenerate on both sides (every applicable row scored the same value): this guard cannot fail.`);
  if (source === 'eval_run' && Math.min(evalRuns.before, evalRuns.after) < 3) {
    warnings.push('Two eval runs on a side is a difference, not a distribution, so run_std is rough; 3 runs per side give a standard deviation worth reading.');
  } else if (runStdRuns !== null && runStdRuns < 3) {
    warnings.push(`run_std came from ${runStdRuns} re-runs, so it is rough; 3 or more re-runs give a standard deviation worth reading.`);
  }
  if (source === 'given' && runStdRuns === null && headlineFloor !== null) {
    warnings.push(`run_std was given as a number, so the band uses ${pyFixed(zAt(level), 2)}; pass run_std_runs=<how many> so it uses the t quantile (3 re-runs is ${pyFixed(tQuantile(2, level), 2)}).`);
  }
  // g. family error
  const familyError = 1 - level ** metricKeys.length;
  if (metricKeys.length >= 4 && (improved.length || slipped.length || regressions.length)) {
    warnings.push(`${metricKeys.length} metrics were each tested at ${pyPercent(level)}, so up to about a ${pyPercent(familyError)} chance that at least one clears zero by luck; treat a single unexpected entry in improved/slipped as a lead and confirm it on a second eval run.`);
  }
  // h. ceiling
  const meanA = results.pass_at_1.mean_a;
  const ceilingLine = ceilingWarning(before, after, meanA, ceilingRate);
  const ceiling = ceilingLine !== null;
  if (ceilingLine) warnings.push(ceilingLine);
  // i. proxy
  const proxyKey = options.proxy ? metricKey(options.proxy) : null;
  const proxyResult = proxyKey ? results[proxyKey] ?? null : null;
  const proxy = proxyCheck(options.proxy ?? null, proxyKey, proxyResult, headline, headlineKey, loud, level);
  if (proxy.warning) warnings.push(proxy.warning);
  if (proxy.overOptimized) state.ok = false;
  // j. headline within the band
  const headlineNoise = results[headlineMetric].noise_band;
  if (headlineNoise !== null && targetVerdict === 'within_eval_noise' && targetResult) {
    warnings.push(`${targetKey}: ${pySigned(targetResult.delta as number, 3)} is inside the eval's own re-run band (${band.rule} = ${pyFixed(headlineNoise, 3)}); re-running the eval moves it that much`);
  }
  // k. regressions and slipped
  for (const m of regressions) {
    const r = results[m];
    warnings.push(`REGRESSION ${m}: ${pySigned(r.delta as number, 3)} (${pyPercent(level)} ${span(r.ci95)}), named in must_not_regress${lower[m] ? ', where lower is better, so the rise is the regression' : ''}`);
  }
  for (const m of slipped) {
    const r = results[m];
    warnings.push(`${m} ${lower[m] ? 'rose' : 'dropped'} ${pySigned(r.delta as number, 3)} (${pyPercent(level)} ${span(r.ci95)})${lower[m] ? ' (lower is better)' : ''}`);
  }
  // l. the headline comparison's note
  if (headline.note) warnings.push(`${headlineKey}: ${headline.note}`);
  // m. situations
  const pairing = results.pass_at_1;
  if (pairing.paired_share !== null && pairing.paired_share < 0.5 && (pairing.n_only_a || pairing.n_only_b)) {
    state.ok = false;
    notComparable.push('situations');
    warnings.push(`NOT COMPARABLE: the two arms drew different situation sets; ${pairing.n_paired} of ${pairing.n_paired + pairing.n_only_a + pairing.n_only_b} tasks are on both sides; pin the after side to the before run's tasks and re-run.`);
  }
  // n. sizing
  const configBefore = passAtConfigOf(before.passAt);
  const configAfter = passAtConfigOf(after.passAt);
  const kEval = configBefore.k || 1;
  const sizing = deltaSizing(before, after, headline, meanA, kEval, power, alpha, ceilingRate);
  const headlineVerdict = targetResult ? targetVerdict : trainWord(verdictWord(results.pass_at_1, replicated), train)[1];
  if (headlineVerdict === 'no_change_detected' && sizing.detectable_effect !== null) warnings.push(sizingWarning(headline.n_paired, kEval, power, sizing));
  // o. k mismatch
  const kLine = kMismatchWarning(before, after, kEval, configAfter.k || 1);
  if (kLine) warnings.push(kLine);
  // p. balance, target not measured
  if (balanced && (balanced.rows_dropped.before || balanced.rows_dropped.after)) {
    warnings.push(`balance_rollouts=True dropped ${balanced.rows_dropped.before} before rows and ${balanced.rows_dropped.after} after rows on ${balanced.tasks_trimmed} tasks so both sides have the same rollouts per task`);
  }
  if (targetVerdict === 'target_not_measured') warnings.push(`target '${options.target}' is not on both row sets`);
  // q. slices
  let by: string | Grouper | null = null;
  let bySource: 'given' | 'auto' | null = options.by !== null && options.by !== undefined && typeof options.by !== 'boolean' ? 'given' : null;
  if (options.by === null || options.by === undefined || options.by === true) {
    by = detectSliceKey(before, after);
    bySource = by !== null ? 'auto' : null;
  } else if (options.by !== false) by = options.by as string | Grouper;
  if (by !== null && !before.groups.has(groupingName(by))) throw new Error(`delta_report: the sides were folded without the grouping ${groupingName(by)} (fold them with deltaPlan of these options)`);
  let groups: Record<string, GroupEntry> | null = null;
  let groupsDown: string[] = [];
  let groupsWeak: string[] = [];
  if (by !== null) {
    const groupLower = lower[headlineMetric] ?? false;
    groups = byGroup(before, after, groupingName(by), headlineMetric, groupLower, nBoot, seed, level);
    groupsDown = Object.keys(groups).filter((g) => groups![g].gain_verdict === 'a_better');
    groupsWeak = flagSlices(groups, sliceMinTasks(alpha), headlineMetric);
    for (const g of groupsDown) {
      const r = groups[g];
      warnings.push(`${headlineMetric} moved the wrong way for ${g}: ${pySigned(r.delta as number, 3)}${groupLower ? ' (lower is better)' : ''} (${pyPercent(level)} ${span(r.ci95)}, ${r.rows_b} rows)`);
    }
    if (!Object.keys(groups).length) warnings.push(`by=${typeof by === 'string' ? by : 'callable'}: no group is on both row sets`);
  }
  // r. configs
  configChecks({
    before, after, a: configBefore, b: configAfter, headlineKey, headlineNoise, headlineCi: headline.ci95, headlineDelta: headline.delta,
    answeredGapPoints: options.answered_gap_points ?? 0.1, answeredAlpha: options.answered_alpha ?? 0.01,
  }, state);

  return {
    ok: state.ok,
    not_comparable: notComparable,
    target: targetKey,
    target_verdict: targetVerdict,
    headline_verdict: headlineVerdict,
    target_delta: targetResult ? targetResult.delta : null,
    target_ci95: targetResult ? targetResult.ci95 : null,
    n_metrics: metricKeys.length,
    alpha,
    level,
    family_error: pyRound(familyError, 4),
    n_paired_tasks: results.pass_at_1.n_paired,
    n_unpaired_tasks: results.pass_at_1.n_only_a + results.pass_at_1.n_only_b,
    improved,
    regressions,
    slipped,
    lower_is_better: metricKeys.filter((m) => lower[m]),
    within_noise: withinNoise,
    run_std: headlineFloor,
    run_std_by_metric: Object.fromEntries(metricKeys.map((m) => [m, floors.byMetric[m] ?? null])),
    run_std_source: source,
    run_std_runs: runStdRuns,
    run_std_df: band.df,
    noise_band: headlineNoise,
    noise_rule: band.rule,
    eval_runs: evalRuns,
    replicated,
    train_runs: train ? train.counts : null,
    train_std: train ? train.std : null,
    train_df: train ? train.df : null,
    train_delta: train ? train.delta : null,
    train_ci95: train ? train.ci95 : null,
    train_rule: train ? train.rule : null,
    ceiling,
    detectable_effect: sizing.detectable_effect,
    tasks_needed: sizing.tasks_needed,
    tasks_needed_source: sizing.tasks_needed_source,
    degenerate_guards: degenerateGuards,
    proxy: proxyKey,
    proxy_verdict: proxy.verdict,
    proxy_delta: proxyResult ? proxyResult.delta : null,
    proxy_ci95: proxyResult ? proxyResult.ci95 : null,
    over_optimized: proxy.overOptimized,
    metrics: results,
    warnings,
    config: { before: configBefore, after: configAfter },
    balanced,
    by: by === null ? null : groupingName(by),
    groups,
    groups_down: groupsDown,
    groups_weak: groupsWeak,
    by_source: bySource,
    slice_min_tasks: groups !== null ? sliceMinTasks(alpha) : null,
  };
}

export type DeltaReport = ReturnType<typeof deltaReport>;
