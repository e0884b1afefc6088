// The gate a dataset passes before it is pushed (platform-api.md §3.5): stamps calibration, reports, refuses RL data
// that could train nothing, and (strict_hacks) RL data whose reward hack_scan finds best explained by something not
// endorsed (docs/hack-scan.md, "In the publish gate"). The hygiene parts of the SDK's report are out of scope here.
import { hackScan, type HackScanReport } from '../stats/hack-scan';
import { isObject, taskKey } from '../stats/keys';
import { passAtDict, passAtFrom } from '../stats/pass-at';
import { foldPassAt, type PassAtFold } from '../stats/pass-at-fold';
import { pyPercent } from '../stats/py-format';
import type { TaskTally } from '../stats/task-tally';
import { calibrate, calibrationCounts, policyRef, type Calibration, type CalibrationCounts, type PolicyInput } from './calibration';
import { PublishGateError } from './errors';
import { groupSignalOf, type GroupSignal } from './group-signal';

export const DEFAULT_BAND: [number, number] = [0.2, 0.8];

export interface PublishGateOptions {
  /** "rl" (any case) makes the rows RL-shaped outright. */
  mode?: string | null;
  band?: [number, number];
  /** A {name, model, prompt_hash, version} object, or the system prompt (hashed). */
  policy?: PolicyInput;
  model?: string | null;
  /** Default true: a refusal throws PublishGateError. False: the report comes back with ok false. */
  strict?: boolean;
  /** What the reward should track, as substrings of hack_scan's feature names. */
  endorsed?: readonly string[];
  /** Refuse RL rows whose hack scan says reward_hack (after the other refusals). */
  strict_hacks?: boolean;
  /** The scan of these rows, made elsewhere (a push scans in a statistics worker); gateReport reads only this one. */
  hack_scan?: HackScanReport | null;
}

export interface PublishGateReport {
  ok: boolean;
  judge_trust: unknown;
  rl_shaped: boolean;
  mode: string | null;
  band: [number, number];
  signal: GroupSignal;
  calibration: CalibrationCounts & { pass_at: ReturnType<typeof passAtDict> };
  /** hack_scan of RL-shaped rows (null otherwise, or where no scan was made); its lines stay in its own warnings. */
  hack_scan: HackScanReport | null;
  warnings: string[];
  refusal: string | null;
}

export interface PublishGateResult {
  report: PublishGateReport;
  /** The calibration written on input row i, or null. */
  stamps: Array<Calibration | null>;
  /** Copies of the input rows with their stamps written (the input is not touched); the rows to push. */
  rows: unknown[];
}

/** RL data means repeats of one ask: mode "rl", or any task_key seen twice. */
export function isRlShaped(rows: readonly unknown[], mode?: string | null): boolean {
  if (String(mode ?? '').toLowerCase() === 'rl') return true;
  const seen = new Set<string>();
  for (const row of rows) {
    if (!isObject(row)) continue;
    const key = taskKey(row);
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}

/** strict_hacks' refusal: the scan of RL rows names a reward hack. */
function hackRefusal(rl: boolean, options: Pick<PublishGateOptions, 'strict_hacks' | 'hack_scan'>): string | null {
  const scan = options.hack_scan;
  if (!rl || !options.strict_hacks || !scan || scan.regime !== 'reward_hack') return null;
  return `reward_hack: ${scan.warnings[0] ?? 'the reward is best explained by a feature that is not endorsed'}; fix the judge (judge trust, the endorsed features) before publishing, or push without strict hacks`;
}

function refusalOf(rl: boolean, stamped: number, signal: Pick<GroupSignal, 'n_mixed'>): string | null {
  if (rl && stamped === 0) {
    return 'ungraded_rl_rows: RL data needs a 0/1 reward on its rollouts so a grouped update has contrast; grade the rows first';
  }
  if (rl && signal.n_mixed === 0) {
    return 'no_mixed_groups: every ask is unanimous (all pass or all fail), so group-relative advantages are zero and a run would train nothing; grade with a stricter rubric or add harder asks before publishing';
  }
  return null;
}

function gateWarnings(signal: GroupSignal, counts: CalibrationCounts, k: number, [lo, hi]: [number, number]): string[] {
  const out: string[] = [];
  const outOfBand = signal.n_mixed - signal.n_in_band;
  if (outOfBand) out.push(`${outOfBand} mixed ask(s) pass outside the ${pyPercent(lo)}-${pyPercent(hi)} band and were not pruned; select them for RL before the push to enforce it`);
  if (signal.n_all_zero || signal.n_all_one) out.push(`${signal.n_all_zero + signal.n_all_one} unanimous ask(s) are still present; RL selection drops them`);
  if (counts.n_unstamped) out.push(`${counts.n_unstamped} row(s) carry no 0/1 reward`);
  if (counts.n_carried) {
    out.push(`${counts.n_carried} row(s) keep the calibration measured before their ask was pruned; the stamp is the pass rate over the original repeats, pass_at here is over the ${k} row(s) per ask that remain`);
  }
  return out;
}

/** The first row's judge_meta.trust (the judge's trust as stamped on the rows), or null. */
export function judgeTrustOf(rows: Iterable<unknown>): unknown {
  for (const row of rows) {
    const meta = isObject(row) ? row.judge_meta : null;
    if (isObject(meta) && meta.trust) return meta.trust;
  }
  return null;
}

/**
 * What the gate reads of a dataset, however it was gathered: from the rows in memory (publishGate) or from the rows
 * table without holding them (main/sync/push-plan.ts). The rules below see only this.
 */
export interface GateInput {
  /** pass_at's fold of the rows: its task tally (each task's 0/1 labels counted, in order of first appearance) is the gate's. */
  fold: PassAtFold;
  n_rows: number;
  /** Some task key is seen twice (over every row, graded or not). */
  repeated: boolean;
  /** Rows whose own stamp is kept (stampRow's `carried`). */
  n_carried: number;
  judge_trust: unknown;
}

/** The refusal the gate's input earns, or null; decided on the task tally alone (no pass_at). */
export function gateRefusal(input: { tasks: TaskTally; repeated: boolean }, options: Pick<PublishGateOptions, 'mode' | 'band' | 'strict_hacks' | 'hack_scan'> = {}): string | null {
  const rl = String(options.mode ?? '').toLowerCase() === 'rl' || input.repeated;
  let stamped = 0;
  let mixed = 0;
  const { counts: sizes, sums: passes } = input.tasks;
  for (let t = 0; t < sizes.length; t++) {
    stamped += sizes[t];
    if (sizes[t] >= 2 && passes[t] > 0 && passes[t] < sizes[t]) mixed++;
  }
  return refusalOf(rl, stamped, { n_mixed: mixed }) ?? hackRefusal(rl, options);
}

/** The gate's report on its input; a refusal throws PublishGateError unless `strict` is false. */
export function gateReport(input: GateInput, options: PublishGateOptions = {}): PublishGateReport {
  const band = options.band ?? DEFAULT_BAND;
  const lo = Number(band[0]);
  const hi = Number(band[1]);
  const rl = String(options.mode ?? '').toLowerCase() === 'rl' || input.repeated;
  const tasks = input.fold.tasks;
  const counts = calibrationCounts(tasks, input.n_rows, input.n_carried, policyRef(options.policy, options.model ?? null));
  const rates = passAtFrom(input.fold);
  const passAtReport = passAtDict(rates);
  const signal = groupSignalOf(tasks, rates, lo, hi);
  const refusal = refusalOf(rl, counts.n_stamped, signal) ?? hackRefusal(rl, options);
  const report: PublishGateReport = {
    ok: refusal === null,
    judge_trust: input.judge_trust,
    rl_shaped: rl,
    mode: options.mode ?? null,
    band: [lo, hi],
    signal,
    calibration: { ...counts, pass_at: passAtReport },
    hack_scan: rl ? (options.hack_scan ?? null) : null,
    warnings: rl && !refusal ? gateWarnings(signal, counts, passAtReport.k, [lo, hi]) : [],
    refusal,
  };
  if (refusal && (options.strict ?? true)) throw new PublishGateError(refusal);
  return report;
}

/** Calibrates, reports and (strict) refuses. Rows are stamped before the refusal is decided; none is dropped. */
export function publishGate(rows: readonly unknown[], options: PublishGateOptions = {}): PublishGateResult {
  const { stamps, counts } = calibrate(rows, options.policy, options.model ?? null);
  const stamped = rows.map((row, i) => (stamps[i] && isObject(row) ? { ...row, calibration: stamps[i] } : row));
  const repeated = isRlShaped(rows, null);
  const input: GateInput = { fold: foldPassAt(stamped), n_rows: rows.length, repeated, n_carried: counts.n_carried, judge_trust: judgeTrustOf(rows) };
  // The SDK scans every RL-shaped set it gates, strict_hacks or not.
  const rl = repeated || String(options.mode ?? '').toLowerCase() === 'rl';
  const scan = options.hack_scan !== undefined ? options.hack_scan : rl ? hackScan(stamped, { endorsed: options.endorsed ?? [] }) : null;
  return { report: gateReport(input, { ...options, hack_scan: scan }), stamps, rows: stamped };
}
