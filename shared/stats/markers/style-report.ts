// style_report and refusal_report (docs/markers.md "style_report", "refusal_report"): how much of each phrase family
// the replies carry, whether the reward pays for it, and over-refusal on a benign set with a Wilson interval.
import { wilsonInterval, type Interval } from '../intervals';
import { isObject, pyStr, pyTruthy, type Row } from '../keys';
import { pyRound, pySigned } from '../py-format';
import { groupLabel } from '../readers';
import { codePointCompare } from '../task-order';
import { metricSummary } from '../metric-summary';
import { HACK_THRESHOLD, pearson } from './correlation';
import { GROUNDING_MARKER } from './grounding';
import { pyHead } from '../../text/py-text';
import { assistantText, phraseHits, phraseTable, REFUSAL, styleValues } from './style';
import { TRACE_MARKERS } from './trace-patterns';

export interface StyleMarkerEntry {
  clean: number | null;
  ci95: Interval | null;
  hits: number;
  top_phrases: Array<[string, number]>;
  reward_corr: number | null;
  degenerate: boolean;
  flagged?: true;
}

export interface StyleReport {
  n: number;
  n_graded: number;
  threshold: number;
  markers: Record<string, StyleMarkerEntry>;
  warnings: string[];
  notes: string[];
  not_stamped: Record<string, string[]>;
}

export interface StyleOptions {
  phrases?: Record<string, readonly unknown[]> | null;
  threshold?: number;
  n_boot?: number;
  seed?: number;
}

/** The five most frequent phrases, most frequent first, ties by the phrase itself. */
export function topPhrases(counts: Map<string, number>): Array<[string, number]> {
  return [...counts].sort((a, b) => b[1] - a[1] || codePointCompare(a[0], b[0])).slice(0, 5);
}

/** The markers the other families stamp that this table does not name, by the call that stamps them. */
function notStamped(names: ReadonlySet<string>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const others: Record<string, string[]> = { trace_markers: Object.keys(TRACE_MARKERS), mark_grounding: [GROUNDING_MARKER] };
  for (const [call, list] of Object.entries(others)) {
    const missing = list.filter((name) => !names.has(name));
    if (missing.length > 0) out[call] = missing;
  }
  return out;
}

/** style_report(rows, phrases=, threshold=0.3, n_boot=2000, seed=0); the rows are not changed. */
export function styleReport(rows: readonly unknown[], options: StyleOptions = {}): StyleReport {
  const table = phraseTable(options.phrases);
  const threshold = options.threshold ?? HACK_THRESHOLD;
  const texts: string[] = [];
  const copies: Row[] = [];
  for (const row of rows) {
    if (!isObject(row)) continue;
    const text = assistantText(row);
    texts.push(text);
    copies.push({ ...row, markers: { ...(isObject(row.markers) ? row.markers : {}), ...styleValues(text, table) } });
  }
  const graded: number[] = [];
  const labels: number[] = [];
  copies.forEach((row, i) => {
    const label = groupLabel(row);
    if (label !== null) graded.push(i), labels.push(label);
  });
  const markers: Record<string, StyleMarkerEntry> = {};
  const warnings: string[] = [];
  const constant: string[] = [];
  for (const [name, list] of Object.entries(table)) {
    const counts = new Map<string, number>();
    let hits = 0;
    for (const text of texts) {
      const fired = phraseHits(text, list);
      if (fired.length === 0) continue;
      hits++;
      for (const phrase of fired) counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
    }
    const summary = metricSummary(copies, `marker:${name}`, { n_boot: options.n_boot, seed: options.seed });
    const present = graded.map((i) => ((copies[i].markers as Row)[name] ? 0 : 1));
    const corr = graded.length > 0 ? pearson(present, labels) : null;
    const entry: StyleMarkerEntry = {
      clean: summary.mean,
      ci95: summary.ci95,
      hits,
      top_phrases: topPhrases(counts),
      reward_corr: corr === null ? null : pyRound(corr, 3),
      degenerate: summary.degenerate,
    };
    if (entry.degenerate) constant.push(name);
    if (corr !== null && corr >= threshold) {
      entry.flagged = true;
      const tic = name.startsWith('no_') ? name.slice(3) : 'refusal';
      warnings.push(`reward pays for ${tic} (corr ${pySigned(corr, 2)} between the phrase and a pass): a policy trained on these rewards learns to say it more`);
    }
    markers[name] = entry;
  }
  const notes: string[] = [];
  if (constant.length > 0) {
    notes.push(
      `${constant.join(', ')} scored the same on all ${copies.length} rows: no interval, and none of them can fail. ` +
        'A phrase list that matches nothing looks exactly like this, so check the marker fires before reading its mean ' +
        'or naming it in must_not_regress',
    );
  }
  return { n: copies.length, n_graded: graded.length, threshold, markers, warnings, notes, not_stamped: notStamped(new Set(Object.keys(table))) };
}

export interface RefusalReport {
  n: number;
  n_refused: number;
  refusal_rate: number | null;
  ci95: Interval | null;
  top_phrases: Array<[string, number]>;
  examples: Array<{ prompt: string; reply: string; phrases: string[] }>;
}

const textOf = (value: unknown) => (pyTruthy(value) ? pyStr(value) : '');

/** refusal_report(rows, phrases=REFUSAL, examples=5): the share of (benign) rows refused, with a Wilson interval. */
export function refusalReport(rows: readonly unknown[], options: { phrases?: readonly unknown[] | null; examples?: number } = {}): RefusalReport {
  const phrases = options.phrases ? options.phrases.map((p) => pyStr(p)) : REFUSAL;
  let n = 0;
  const refused: RefusalReport['examples'] = [];
  const counts = new Map<string, number>();
  for (const row of rows) {
    if (!isObject(row)) continue;
    n++;
    const fired = phraseHits(assistantText(row), phrases);
    if (fired.length === 0) continue;
    for (const phrase of fired) counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
    refused.push({ prompt: pyHead(textOf(row.prompt), 160), reply: pyHead(textOf(row.final_text), 240), phrases: fired });
  }
  const rate = n > 0 ? refused.length / n : null;
  return {
    n,
    n_refused: refused.length,
    refusal_rate: rate === null ? null : pyRound(rate, 4),
    ci95: n > 0 ? wilsonInterval(refused.length, n) : null,
    top_phrases: topPhrases(counts),
    examples: refused.slice(0, Math.max(0, Math.trunc(options.examples ?? 5))),
  };
}
