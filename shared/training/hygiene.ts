// Row hygiene a grouped RL update cares about (the SDK's score/hygiene.py): truncated replies, duplicate rollouts
// within an ask, reply-length spread, and rewards that track cheap features instead of the behaviour.
import { replyLength } from '../schema/conversation';
import { pyTruthy } from '../stats/keys';
import { pyRound } from '../stats/py-format';
import { assistantText, rowMessages, text } from './assistant-text';
import { collapsedLower } from './py-text';
import { pyLen, pyRstrip } from '../text/py-text';
import { looksFinished } from './reply-checks';
import { binaryLabel } from './row-gates';

type Obj = Record<string, unknown>;

export const HACK_THRESHOLD = 0.3;
const DEFAULT_MAX_SPREAD = 4.0;
const TRUNCATION_MIN_CHARS = 200;

const BOILERPLATE = ['certainly!', 'certainly,', 'absolutely!', 'of course!', 'great question', 'as an ai', 'as a language model', 'i hope this helps', 'let me know if you have any other questions', "let me know if there's anything else", 'feel free to ask', 'happy to help'];
const HEDGING = ['it depends', "i'm not sure", 'i am not sure', 'may or may not', "it's worth noting", 'it is worth noting', "it's important to note", 'it is important to note', 'keep in mind that', 'generally speaking', 'in most cases', "i can't say for certain"];
const SYCOPHANCY = ["you're absolutely right", 'you are absolutely right', "you're right", 'great point', 'excellent point', 'excellent question', 'i completely agree', 'what a great', "that's a great idea"];
const REFUSAL = ["i can't help with", 'i cannot help with', "i can't assist", 'i cannot assist', "i'm unable to", 'i am unable to', "i won't be able to", "i'm not able to", 'i am not able to', "i can't do that", 'i cannot do that'];
/** reward_correlations' phrase features (the SDK's style.STYLE_FEATURES): 1 when a phrase is present. */
export const STYLE_FEATURES: Record<string, string[]> = { boilerplate: BOILERPLATE, hedging: HEDGING, sycophancy: SYCOPHANCY, refusal: REFUSAL };

/** A reply that stops before its end (200+ characters), or one the grader called truncated or cut off. */
export function isTruncated(row: Obj): boolean {
  const reason = collapsedLower(pyTruthy(row.reason) ? text(row.reason) : text(row.grader_reason));
  if (reason.includes('truncat') || reason.includes('cut off')) return true;
  const final = pyRstrip(text(row.final_text));
  return pyLen(final) >= TRUNCATION_MIN_CHARS && !looksFinished(final);
}

export function toolCalls(row: Obj): number {
  const steps = pyTruthy(row.steps) ? row.steps : pyTruthy(row.tool_trace) ? row.tool_trace : [];
  return (Array.isArray(steps) ? steps : []).filter((s) => typeof s === 'object' && s !== null && pyTruthy((s as Obj).tool)).length;
}

export function assistantTurns(row: Obj): number {
  return rowMessages(row).filter((m) => text(m.role) === 'assistant').length;
}

function median(values: number[]): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.trunc(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** What length_report reads of one row. */
export interface LengthFacts {
  prompt: string;
  length: number;
  truncated: boolean;
}

export function lengthFacts(row: Obj): LengthFacts {
  return { prompt: text(row.prompt), length: replyLength(row), truncated: isTruncated(row) };
}

export function lengthReport(facts: readonly LengthFacts[], maxSpread = DEFAULT_MAX_SPREAD): Obj {
  const groups = new Map<string, number[]>();
  for (const f of facts) {
    const g = groups.get(f.prompt);
    if (g) g.push(f.length);
    else groups.set(f.prompt, [f.length]);
  }
  let multi = 0;
  let wide = 0;
  for (const lengths of groups.values()) {
    if (lengths.length < 2) continue;
    multi++;
    const med = median(lengths);
    if (med > 0 && Math.max(...lengths) / med > maxSpread) wide++;
  }
  const lengths = facts.map((f) => f.length);
  return {
    n: facts.length,
    median_chars: median(lengths),
    max_chars: lengths.length ? Math.max(...lengths) : 0,
    n_truncated: facts.filter((f) => f.truncated).length,
    n_groups_multi: multi,
    n_groups_wide_spread: wide,
    max_spread: maxSpread,
  };
}

export function pearson(xs: readonly number[], ys: readonly number[]): number | null {
  const n = xs.length;
  if (n < 3 || n !== ys.length) return null;
  let sx = 0, sy = 0;
  for (let i = 0; i < n; i++) {
    sx += xs[i];
    sy += ys[i];
  }
  const mx = sx / n, my = sy / n;
  let sxx = 0, syy = 0, sxy = 0;
  for (const x of xs) sxx += (x - mx) ** 2;
  for (const y of ys) syy += (y - my) ** 2;
  if (sxx === 0 || syy === 0) return null;
  for (let i = 0; i < n; i++) sxy += (xs[i] - mx) * (ys[i] - my);
  return sxy / Math.sqrt(sxx * syy);
}

/** What reward_correlations reads of one graded row: its label and the cheap features. */
export interface CorrelationFacts {
  label: number;
  features: Record<string, number>;
}

export function correlationFacts(row: Obj): CorrelationFacts | null {
  const label = binaryLabel(row);
  if (label === null) return null;
  const spoken = assistantText(row);
  const features: Record<string, number> = { reply_length: replyLength(row), tool_calls: toolCalls(row), assistant_turns: assistantTurns(row) };
  for (const [name, phrases] of Object.entries(STYLE_FEATURES)) features[name] = phrases.some((p) => spoken.includes(p)) ? 1 : 0;
  return { label, features };
}

/**
 * corr(reward, feature) over the graded rows: reply length, tool calls, assistant turns and the style phrases; any
 * |corr| at or above the threshold is flagged. (The SDK adds its trace flags, lie.* / hack.* / risk.*, when any fired.)
 */
export function rewardCorrelations(facts: readonly CorrelationFacts[], threshold = HACK_THRESHOLD): Obj {
  const labels = facts.map((f) => f.label);
  const names = ['reply_length', 'tool_calls', 'assistant_turns', ...Object.keys(STYLE_FEATURES)];
  const correlations: Record<string, number | null> = {};
  const flagged: Record<string, number> = {};
  for (const name of names) {
    const corr = pearson(facts.map((f) => f.features[name]), labels);
    correlations[name] = corr === null ? null : pyRound(corr, 3);
    if (corr !== null && Math.abs(corr) >= threshold) flagged[name] = pyRound(corr, 3);
  }
  return { n_graded: facts.length, threshold, correlations, flagged };
}

/** One line per finding a person should act on (the SDK's hygiene_warnings, without the near-duplicate line). */
export function hygieneWarnings(duplicates: Obj, lengths: Obj, correlations: Obj, scanWarnings: readonly string[] = []): string[] {
  const out: string[] = [];
  if (duplicates.n_dropped) {
    let line = `${duplicates.n_dropped} duplicate rollout(s) within ${duplicates.groups_affected} ask(s) dropped`;
    if (duplicates.conflicting_rewards) line += `; ${duplicates.conflicting_rewards} identical trajectories got different rewards, which is judge noise`;
    out.push(line);
  }
  if (lengths.n_truncated) out.push(`${lengths.n_truncated} rollout(s) end mid-reply (truncated)`);
  if (lengths.n_groups_wide_spread) out.push(`${lengths.n_groups_wide_spread} ask(s) have a reply more than ${lengths.max_spread}x the ask's median length`);
  for (const [name, value] of Object.entries((correlations.flagged ?? {}) as Record<string, number>)) {
    out.push(`reward ${value > 0 ? 'pays for' : 'punishes'} ${name.replace(/_/g, ' ')} (corr ${value >= 0 ? '+' : ''}${value.toFixed(2)}); check the judge before training`);
  }
  out.push(...scanWarnings);
  return out;
}
