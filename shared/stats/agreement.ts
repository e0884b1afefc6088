// Gold kinds, Cohen's kappa and judge_agreement (stats-semantics §12.2, §12.4).
import { isObject, pyStr, pyTruthy, rowKey, type Row } from './keys';
import { agreementLabel } from './readers';
import { pyPercent, pyRound } from './py-format';

export const GOLD_KIND_KEY = 'gold_kind';
export const GOLD_KINDS = ['human', 'program', 'model'] as const;
export const TRUSTED_GOLD_KINDS: readonly string[] = ['human', 'program'];
export const GOLD_KIND_ALIASES: Record<string, string> = { verifier: 'program' };
/** MIN_GOLD = 50: below it the accuracy estimate is coarse. */
export const MIN_GOLD = 50;
/** LEAK_THRESHOLD = 0.1: share of gold failures the judge may pass before it is called out. */
export const LEAK_THRESHOLD = 0.1;

export const MODEL_GOLD_REASON =
  'The gold labels came from a model, not a person, so this does not measure the judge. ' +
  "Label 50 rows with attach_labels(rows, labels, kind='human') and run again.";
export const UNKNOWN_GOLD_REASON =
  'These rows carry gold_reward with no record of who wrote it, so it does not measure the judge. ' +
  "If you labeled them yourself, attach the labels with attach_labels(rows, labels, kind='human'), " +
  "which marks them as a person's; a model's labels stay model gold.";

/** A kind name with the alias applied ("verifier" -> "program"). */
export function canonicalKind(kind: string): string {
  return GOLD_KIND_ALIASES[kind] ?? kind;
}

/** One word for a set of label kinds (§12.2); null for no kinds. */
export function goldKindOf(kinds: Iterable<unknown>): string | null {
  const names = new Set<string>();
  for (const k of kinds) names.add(canonicalKind(pyTruthy(k) ? pyStr(k) : 'unknown'));
  if (names.size === 0) return null;
  if (names.size === 1) return names.values().next().value as string;
  const others = [...names].filter((k) => !TRUSTED_GOLD_KINDS.includes(k)).sort();
  return others.length === 1 ? others[0] : 'mixed';
}

export function isTrustedGold(kind: string | null, allowModelGold = false): boolean {
  return (kind !== null && TRUSTED_GOLD_KINDS.includes(kind)) || allowModelGold;
}

/** How a warning names the gold labels: "human labels" or "gold labels (<kind>)". */
export function goldWords(kind: string | null): string {
  return kind === 'human' ? 'human labels' : `gold labels (${kind || 'unknown'})`;
}

export function goldKindReason(kind: string | null): string {
  return kind === 'unknown' ? UNKNOWN_GOLD_REASON : MODEL_GOLD_REASON;
}

/** Which half of an agreement check is missing (rewards, gold, both, or rows having both). */
export function missingSideNote(nReward: number, nGold: number, reward = 'reward', gold = 'gold_reward'): string {
  if (!nReward && !nGold) {
    return `no row has a reward and no row has a gold label: score the rows first with run_judge(rows, judge) or evaluate(data, judge), then hand-label a sample with attach_labels(rows, labels, kind='human'), which writes '${gold}'`;
  }
  if (!nReward) {
    return `no row has a reward: score them first with run_judge(rows, judge) or evaluate(data, judge), which writes '${reward}'. Passing judge= to judge_trust only runs the perturbation probes; it does not score the rows.`;
  }
  if (!nGold) {
    return `no row has a gold label: attach_labels(rows, labels, kind='human') writes '${gold}' (0/1) and marks it as a person's, and ${MIN_GOLD} labeled rows is the sample to aim for.`;
  }
  return `${nReward} row(s) have a reward and ${nGold} have a gold label, but no row has both: label the rows that were scored (attach_labels matches on rollout_id, scenario_id plus rollout_index, or prompt plus final_text).`;
}

/** Cohen's kappa from a confusion table, rounded to 4; null when empty. */
export function kappa(tp: number, fp: number, fn: number, tn: number): number | null {
  const n = tp + fp + fn + tn;
  if (n === 0) return null;
  const po = (tp + tn) / n;
  const judgePass = (tp + fp) / n;
  const goldPass = (tp + fn) / n;
  const pe = judgePass * goldPass + (1 - judgePass) * (1 - goldPass);
  if (pe === 1) return po === 1 ? 1.0 : 0.0;
  return pyRound((po - pe) / (1 - pe), 4);
}

export interface Confusion { tp: number; fp: number; fn: number; tn: number }

export interface AgreementReport {
  n: number;
  n_skipped: number;
  n_unmatched: number;
  agreement: number | null;
  kappa: number | null;
  confusion: Confusion;
  pass_when_gold_fail: number | null;
  fail_when_gold_pass: number | null;
  judge_pass_rate: number | null;
  gold_pass_rate: number | null;
  gold_kind: string | null;
  ok: boolean;
  warnings: string[];
}

export interface AgreementOptions { reward?: string; allow_model_gold?: boolean }

/** judge_agreement(rows, gold = "gold_reward", reward = "reward", allow_model_gold = False) (§12.4). */
export function judgeAgreement(rows: readonly unknown[], gold: string | readonly unknown[] = 'gold_reward', options: AgreementOptions = {}): AgreementReport {
  const reward = options.reward ?? 'reward';
  const judged = rows.filter(isObject);
  const c: Confusion = { tp: 0, fp: 0, fn: 0, tn: 0 };
  const kinds = new Set<string>();
  let skipped = 0;
  let unmatched = 0;
  let nReward = 0;
  let nGold = 0;
  const add = (j: number, g: number) => {
    if (j === 1) g === 1 ? c.tp++ : c.fp++;
    else g === 1 ? c.fn++ : c.tn++;
  };
  if (typeof gold === 'string') {
    for (const row of judged) {
      const j = agreementLabel(row[reward]);
      const g = agreementLabel(row[gold]);
      if (j !== null) nReward++;
      if (g !== null) nGold++;
      if (j === null || g === null) { skipped++; continue; }
      add(j, g);
      kinds.add(pyTruthy(row[GOLD_KIND_KEY]) ? pyStr(row[GOLD_KIND_KEY]) : 'unknown');
    }
  } else {
    kinds.add('model');
    const byKey = new Map<string, Row>();
    for (const row of gold) if (isObject(row)) { const k = rowKey(row); if (!byKey.has(k)) byKey.set(k, row); }
    for (const row of judged) {
      const twin = byKey.get(rowKey(row));
      if (twin === undefined) { unmatched++; continue; }
      const j = agreementLabel(row[reward]);
      const g = agreementLabel(twin[reward]);
      if (j === null || g === null) { skipped++; continue; }
      add(j, g);
    }
  }
  const { tp, fp, fn, tn } = c;
  const n = tp + fp + fn + tn;
  const leak = fp + tn ? fp / (fp + tn) : null;
  const miss = fn + tp ? fn / (fn + tp) : null;
  const warnings: string[] = [];
  if (n === 0) {
    warnings.push(typeof gold === 'string' ? missingSideNote(nReward, nGold, reward, gold) : 'no judged row matched a gold row by rollout id, scenario id, or prompt');
  } else if (n < MIN_GOLD) {
    warnings.push(`${n} gold rows; the accuracy estimate is coarse below ${MIN_GOLD} (Lambert 2025, chapter Reward Modeling, suggests 50-200)`);
  }
  if (leak !== null && leak >= LEAK_THRESHOLD && fp) {
    warnings.push(`judge passed ${fp} of ${fp + tn} gold failures (${pyPercent(leak)}); those rows train the failure, not the behavior`);
  }
  const goldKind = n ? goldKindOf(kinds) : null;
  const trusted = isTrustedGold(goldKind, options.allow_model_gold ?? false);
  if (n && !trusted) warnings.push(goldKindReason(goldKind));
  const r4 = (x: number | null) => (x === null ? null : pyRound(x, 4));
  return {
    n,
    n_skipped: skipped,
    n_unmatched: unmatched,
    agreement: n ? r4((tp + tn) / n) : null,
    kappa: kappa(tp, fp, fn, tn),
    confusion: { tp, fp, fn, tn },
    pass_when_gold_fail: r4(leak),
    fail_when_gold_pass: r4(miss),
    judge_pass_rate: n ? r4((tp + fp) / n) : null,
    gold_pass_rate: n ? r4((tp + fn) / n) : null,
    gold_kind: goldKind,
    ok: n > 0 && trusted,
    warnings,
  };
}
