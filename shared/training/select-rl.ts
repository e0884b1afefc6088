// select_for_rl (the SDK's score/optimize.py): whole groups with within-ask contrast, never a split one. Drops, in
// order: rows quoting their privileged block, junk / do-nothing / unusable labels, duplicate rollouts, truncated
// ones, unanimous asks, asks that shrank to no contrast, asks outside the difficulty band; then takes asks
// round-robin across fault kinds and, within one, across pass rates. Runs on per-row facts (rl-facts.ts).
import { groupSignalOf } from '../platform/group-signal';
import { codePointCompare } from '../stats/task-order';
import { tallyRows } from '../stats/task-tally';
import { wilsonInterval } from '../stats/intervals';
import { passAt } from '../stats/pass-at';
import { sha256 as sha256Hex } from './digest';
import { pyRound } from '../stats/py-format';
import { evalSourcedWarning } from './eval-sourced';
import { TrainingValueError } from './export-settings';
import { hygieneWarnings, lengthReport, rewardCorrelations } from './hygiene';
import { LeakCollector } from './leak-drop';
import { RL_FLAG, rlIs, TRUNCATED_POLICIES, type RlDetails, type RlFacts, type TruncatedPolicy } from './rl-facts';

type Obj = Record<string, unknown>;

export const RL_ORDERS = ['spread', 'middle'] as const;
export const TEXT_GATE_MODES = ['auto', 'require', 'skip'] as const;
const DIFFICULTY_BAND_ROLLOUTS = 16;

export interface RlOptions {
  target?: number;
  lo?: number;
  hi?: number;
  enforce_band?: boolean;
  has_tools?: boolean;
  dedupe?: boolean;
  drop_truncated?: boolean;
  truncated?: string;
  order?: string;
  text_gates?: string;
}

export interface Calibration {
  task_id: string;
  student: { name: string; model: null; prompt_hash: null; version: string | null };
  n: number;
  pass_rate: number;
  mean_kl: null;
  pass_rate_ci95: [number, number] | null;
}

export interface RlSelection {
  selected: number[];
  /** The calibration stamp written on each selected row, by input index. */
  stamps: Map<number, Calibration>;
  report: Obj;
}

const stableKey = (t: string): string => sha256Hex(`:${t}`);

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** A task's binary labels, counted: how many, how many of them 1. */
interface LabelCount {
  n: number;
  passes: number;
}

const unanimous = (c: LabelCount): boolean => c.passes === 0 || c.passes === c.n;

/** Binary labels per task (task_key), counted, unlabeled rows skipped. */
function labelCounts(facts: readonly RlFacts[]): Map<string, LabelCount> {
  const out = new Map<string, LabelCount>();
  for (const f of facts) {
    if (f.label === null) continue;
    const count = out.get(f.task);
    if (count) {
      count.n++;
      count.passes += f.label;
    } else out.set(f.task, { n: 1, passes: f.label });
  }
  return out;
}

/** Rows standing in for the facts where the platform's group_signal and pass_at read them: their task and label. */
const asRows = (facts: readonly RlFacts[]): Obj[] => facts.map((f) => ({ scenario_id: f.task, reward: f.label }));

function trimUnanimous(kept: RlFacts[]): { kept: RlFacts[]; dropped: number } {
  const dead = new Set<string>();
  for (const [task, count] of labelCounts(kept)) if (count.n >= 2 && unanimous(count)) dead.add(task);
  return { kept: kept.filter((f) => !dead.has(f.task)), dropped: dead.size };
}

function trimOutOfBand(kept: RlFacts[], lo: number, hi: number): { kept: RlFacts[]; dropped: number; easy: number; hard: number } {
  if (!(lo >= 0 && lo <= hi && hi <= 1)) throw new TrainingValueError(`band must satisfy 0 <= lo <= hi <= 1, got (${lo}, ${hi})`);
  const rates = new Map<string, { p: number; n: number | null }>();
  for (const [task, { n, passes }] of labelCounts(kept)) rates.set(task, { p: passes / n, n });
  for (const f of kept) if (!rates.has(f.task) && f.stampedRate) rates.set(f.task, { p: f.stampedRate.rate, n: f.stampedRate.n });
  const easy = new Set<string>();
  const hard = new Set<string>();
  for (const [task, { p, n }] of rates) {
    if (n !== null && n < 2) continue;
    if (!(p > 0 && p < 1)) continue;
    if (p > hi) easy.add(task);
    else if (p < lo) hard.add(task);
  }
  return { kept: kept.filter((f) => !easy.has(f.task) && !hard.has(f.task)), dropped: easy.size + hard.size, easy: easy.size, hard: hard.size };
}

/** Round-robin over the distinct pass rates (ascending, rounded to 4), keeping the input order within each. */
function spreadBy(tasks: string[], rate: (t: string) => number): string[] {
  const levels = new Map<number, string[]>();
  for (const t of tasks) {
    const level = pyRound(rate(t), 4);
    const list = levels.get(level);
    if (list) list.push(t);
    else levels.set(level, [t]);
  }
  const queues = [...levels.keys()].sort((a, b) => a - b).map((level) => levels.get(level) as string[]);
  const out: string[] = [];
  for (let depth = 0; out.length < tasks.length; depth++) for (const q of queues) if (depth < q.length) out.push(q[depth]);
  return out;
}

function carryCalibration(graded: readonly RlFacts[], selected: readonly RlFacts[], details: readonly RlDetails[], stamps: Map<number, Calibration>): Obj {
  const groups = labelCounts(graded);
  const tasks = new Map<string, Obj>();
  let stamped = 0;
  for (const [i, f] of selected.entries()) {
    const count = groups.get(f.task);
    if (!count) continue;
    const { n, passes } = count;
    const ci = wilsonInterval(passes, n);
    const record: Calibration = {
      task_id: f.task,
      student: { name: '', model: null, prompt_hash: null, version: details[i].version },
      n,
      pass_rate: passes / n,
      mean_kl: null,
      pass_rate_ci95: ci ? [pyRound(ci[0], 4), pyRound(ci[1], 4)] : null,
    };
    stamps.set(f.index, record);
    if (!tasks.has(f.task)) tasks.set(f.task, { task_id: f.task, n: record.n, pass_rate: record.pass_rate, pass_rate_ci95: record.pass_rate_ci95 });
    stamped++;
  }
  return { n_tasks: groups.size, n_rows: selected.length, n_stamped: stamped, tasks: [...tasks.values()] };
}

/**
 * select_for_rl on the rows' facts. `detailsOf` gives the selected rows' details (rlDetails), in the order asked: only
 * the report reads them, so a streamed selection reads those few rows again rather than keep every row's.
 */
export function selectForRl(all: readonly RlFacts[], detailsOf: (selected: readonly RlFacts[]) => RlDetails[], options: RlOptions = {}, nInput = all.length): RlSelection {
  let truncated = (options.truncated ?? 'drop') as TruncatedPolicy;
  if (!(TRUNCATED_POLICIES as readonly string[]).includes(truncated)) throw new TrainingValueError(`truncated must be one of ${TRUNCATED_POLICIES.join(', ')}; got ${JSON.stringify(truncated)}`);
  const order = options.order ?? 'spread';
  if (!(RL_ORDERS as readonly string[]).includes(order)) throw new TrainingValueError(`order must be one of ${RL_ORDERS.join(', ')}; got ${JSON.stringify(order)}`);
  const textGates = options.text_gates ?? 'auto';
  if (!(TEXT_GATE_MODES as readonly string[]).includes(textGates)) throw new TrainingValueError(`text_gates must be one of ${TEXT_GATE_MODES.join(', ')}; got ${JSON.stringify(textGates)}`);
  if (options.drop_truncated === false && truncated === 'drop') truncated = 'keep';
  const lo = options.lo ?? 0.2;
  const hi = options.hi ?? 0.8;
  const leaks = new LeakCollector();
  const rows = all.filter((f) => !leaks.drops(f));
  const marked = rows.filter((f) => rlIs(f, RL_FLAG.marked)).length;
  const gatesOn = textGates === 'require' || (textGates === 'auto' && rows.some((f) => rlIs(f, RL_FLAG.trainable)));
  const textGateReport = { mode: textGates, applied: gatesOn, reason: gatesOn ? null : textGates === 'auto' ? 'no row carries a reply' : "text_gates='skip'" };
  const dropped = { do_nothing: 0, incomplete_junk: 0, unusable_label: 0 };
  let kept: RlFacts[] = [];
  for (const f of rows) {
    let reason: keyof typeof dropped | null = null;
    if (!(rlIs(f, RL_FLAG.verifiedZero) && rlIs(f, RL_FLAG.trainable))) {
      if (gatesOn && rlIs(f, RL_FLAG.junk)) reason = 'incomplete_junk';
      else if (gatesOn && f.label === null && rlIs(f, RL_FLAG.doNothing)) reason = 'do_nothing';
      else if (f.label === null) reason = 'unusable_label';
    }
    if (reason) dropped[reason]++;
    else kept.push(f);
  }
  const nAfterGates = kept.length;
  const originalSizes = new Map<string, number>();
  for (const f of kept) originalSizes.set(f.task, (originalSizes.get(f.task) ?? 0) + 1);
  let dup: Obj = { n_dropped: 0, groups_affected: 0, conflicting_rewards: 0 };
  if (options.dedupe !== false && gatesOn) {
    const seen = new Map<string, 0 | 1 | null>();
    const affected = new Set<string>();
    let nDropped = 0, conflicting = 0;
    const out: RlFacts[] = [];
    for (const f of kept) {
      const first = seen.get(f.dedupeKey);
      if (first !== undefined) {
        nDropped++;
        affected.add(f.prompt);
        if (first !== null && f.label !== null && first !== f.label) conflicting++;
        continue;
      }
      seen.set(f.dedupeKey, f.label);
      out.push(f);
    }
    dup = { n: kept.length, n_kept: out.length, n_dropped: nDropped, groups_affected: affected.size, duplicate_rate: kept.length ? nDropped / kept.length : 0, conflicting_rewards: conflicting };
    kept = out;
  }
  let truncDropped = 0;
  if (truncated === 'drop') {
    const before = kept.length;
    kept = kept.filter((f) => !rlIs(f, RL_FLAG.truncated));
    truncDropped = before - kept.length;
  }
  const riders = new Map<string, RlFacts[]>();
  if (truncated === 'keep') {
    const voting: RlFacts[] = [];
    for (const f of kept) {
      if (rlIs(f, RL_FLAG.overlong)) pushTo(riders, f.task, f);
      else voting.push(f);
    }
    kept = voting;
  }
  const trim = trimUnanimous(kept);
  kept = trim.kept;
  const collapsed = new Set<string>();
  for (const [task, count] of labelCounts(kept)) if ((originalSizes.get(task) ?? 0) >= 2 && unanimous(count)) collapsed.add(task);
  if (collapsed.size) kept = kept.filter((f) => !collapsed.has(f.task));
  const unanimousDropped = trim.dropped + collapsed.size;
  let band = { dropped: 0, easy: 0, hard: 0 };
  if (options.enforce_band !== false) {
    const trimmed = trimOutOfBand(kept, lo, hi);
    kept = trimmed.kept;
    band = trimmed;
  }
  const groups = new Map<string, RlFacts[]>();
  for (const f of kept) pushTo(groups, f.task, f);
  for (const [task, list] of riders) {
    const group = groups.get(task);
    if (group) {
      group.push(...list);
      kept.push(...list);
    }
  }
  // Each ask's pass rate is read several times over (its rank, its band, its spread level): counted once.
  const rates = new Map<string, number>();
  const passRate = (task: string): number => {
    let rate = rates.get(task);
    if (rate === undefined) {
      let n = 0;
      let passes = 0;
      for (const f of groups.get(task) as RlFacts[]) {
        if ((riders.size && rlIs(f, RL_FLAG.overlong)) || f.label === null) continue;
        n++;
        passes += f.label;
      }
      rates.set(task, (rate = n ? passes / n : 0));
    }
    return rate;
  };
  const inBand = (p: number): boolean => lo <= p && p <= hi;
  const buckets = new Map<string, string[]>();
  for (const [task, members] of groups) pushTo(buckets, members[0].fault, task);
  for (const [fault, tasks] of buckets) {
    const keyed = tasks.map((t) => {
      const p = passRate(t);
      return { t, a: inBand(p) ? 0 : 1, b: order === 'middle' ? Math.abs(p - (lo + hi) / 2) : 0, c: stableKey(t) };
    });
    keyed.sort((x, y) => x.a - y.a || x.b - y.b || codePointCompare(x.c, y.c));
    let ranked = keyed.map((k) => k.t);
    if (order === 'spread') ranked = [...spreadBy(ranked.filter((t) => inBand(passRate(t))), passRate), ...spreadBy(ranked.filter((t) => !inBand(passRate(t))), passRate)];
    buckets.set(fault, ranked);
  }
  const faultOrder = [...buckets.keys()].sort((a, b) => (buckets.get(b) as string[]).length - (buckets.get(a) as string[]).length || codePointCompare(a, b));
  const selected: RlFacts[] = [];
  let picked = 0;
  const goal = Math.max(1, Math.trunc(options.target ?? 1000));
  for (let round = 0; selected.length < goal; round++) {
    let took = false;
    for (const fault of faultOrder) {
      const tasks = buckets.get(fault) as string[];
      if (round < tasks.length) {
        selected.push(...(groups.get(tasks[round]) as RlFacts[]));
        picked++;
        took = true;
        if (selected.length >= goal) break;
      }
    }
    if (!took) break;
  }
  const stamps = new Map<number, Calibration>();
  const details = detailsOf(selected);
  const length = lengthReport(details.map((d) => d.length));
  const correlations = rewardCorrelations(details.flatMap((d) => d.correlation ?? []));
  const signal = groupSignalOf(tallyRows(asRows(selected)), passAt(asRows(selected), { intervals: false }), lo, hi);
  const evalSelected = selected.filter((f) => rlIs(f, RL_FLAG.evalSourced)).length;
  const calibration = carryCalibration(all, selected, details, stamps);
  const report: Obj = {
    n: nInput,
    privileged_leaks_dropped: leaks.summary().n_dropped,
    privileged_leaks: leaks.summary(),
    n_after_gates: nAfterGates,
    gates: dropped,
    text_gates: textGateReport,
    n_after_trim: kept.length,
    unanimous_groups_dropped: unanimousDropped,
    collapsed_groups_dropped: collapsed.size,
    n_selected: selected.length,
    groups_selected: picked,
    fault_kinds: Object.fromEntries([...buckets].map(([fault, tasks]) => [fault, tasks.length])),
    target: goal,
    band: [lo, hi],
    enforce_band: options.enforce_band !== false,
    band_groups_dropped: band.dropped,
    band_dropped: { too_easy: band.easy, too_hard: band.hard },
    prior: null,
    duplicates: dup,
    truncated_dropped: truncDropped,
    truncated_policy: truncated,
    truncated_kept: truncated === 'keep' ? marked : 0,
    truncated_penalized: truncated === 'penalize' ? marked : 0,
    truncated_selected: selected.filter((f) => rlIs(f, RL_FLAG.overlong)).length,
    length,
    correlations,
    signal,
    eval_sourced: evalSelected,
    calibration,
  };
  const warnings = hygieneWarnings(dup, length, correlations);
  if (!gatesOn) warnings.push(`The text gates (junk, do-nothing, duplicate) did not run (${textGateReport.reason}), so this selection is by reward and difficulty band alone; nothing checked the replies.`);
  report.audit = null;
  const halves = (calibration.tasks as Obj[]).map((t) => t.pass_rate_ci95 as [number, number] | null).filter((ci): ci is [number, number] => ci !== null).map((ci) => (ci[1] - ci[0]) / 2);
  if (halves.length) {
    const ns = (calibration.tasks as Obj[]).map((t) => t.n as number).sort((a, b) => a - b);
    const medianN = ns.length % 2 ? ns[(ns.length - 1) / 2] : (ns[ns.length / 2 - 1] + ns[ns.length / 2]) / 2;
    if (medianN < DIFFICULTY_BAND_ROLLOUTS) {
      const hs = [...halves].sort((a, b) => a - b);
      const half = hs.length % 2 ? hs[(hs.length - 1) / 2] : (hs[hs.length / 2 - 1] + hs[hs.length / 2]) / 2;
      warnings.push(`Difficulty was measured from ${medianN} rollouts per task, so a task's band assignment can be off by about ±${half.toFixed(1)}. Use ${DIFFICULTY_BAND_ROLLOUTS} rollouts per task for a firmer band.`);
    }
  }
  if (evalSelected) warnings.push(evalSourcedWarning(evalSelected, 'selected row(s)'));
  report.eval_sourced_input = rows.filter((f) => rlIs(f, RL_FLAG.evalSourced)).length;
  if (!selected.length) {
    const graded = rows.filter((f) => f.label !== null).length;
    if (graded) warnings.push(`nothing selected: ${graded} graded row(s) in, ${trim.dropped + collapsed.size} unanimous and ${collapsed.size} collapsed group(s) dropped, ${band.dropped} outside the band; no mixed group survived`);
    if (report.eval_sourced_input) warnings.push(evalSourcedWarning(report.eval_sourced_input as number, 'input row(s)'));
  }
  const before = passAt(asRows(rows), { intervals: false });
  const after = passAt(asRows(selected), { intervals: false });
  if (before.pass_at_k !== null && after.pass_at_k === null) {
    warnings.push(`pass^k / pass@k do not survive the prune: the graded rows scored k=${before.k}, the selection leaves ${after.k} rollout(s) per ask; take the k-way numbers from pass_at before selecting`);
  }
  report.hygiene_warnings = warnings;
  if (signal.n_mixed === 0) {
    report.warning = 'no_mixed_groups: every selected group is unanimous or single, so group-relative advantages are all zero. Regrade with a stricter rubric or raise difficulty before training on this.';
  }
  return { selected: selected.map((f) => f.index), stamps, report };
}
