// decontaminate(rows, against, n, fields, overlap, embedder, similarity): drop training rows that leak eval tasks (stats-semantics.md section 11).
import { StatsValueError } from './errors';
import { isObject, pyStr, pyTruthy, type Row } from './keys';
import { pyRound } from './py-format';
import { semanticHits, type Embedder } from './decontaminate-semantic';

export type { Embedder } from './decontaminate-semantic';

export interface DecontaminateOptions {
  n?: number;
  fields?: string[];
  overlap?: number;
  embedder?: Embedder | null;
  similarity?: number;
  /** Reads a JSONL path source (the engine passes one; shared/ cannot touch files). */
  readSource?: (path: string) => unknown[];
}

export interface Hit {
  field: string;
  match: string;
  coverage?: number;
  task?: string;
  similarity?: number;
  eval_prompt?: string;
}

export interface DecontaminateReport {
  n: number;
  n_kept: number;
  n_contaminated: number;
  contamination_rate: number;
  n_same_task: number;
  n_exact: number;
  n_near: number;
  n_semantic: number;
  n_eval_rows: number;
  n_eval_texts: number;
  ngram: number;
  overlap: number;
  similarity: number | null;
  fields: string[];
  by_field: Record<string, number>;
  examples: Array<{ index: number } & Hit>;
  rules_skipped: Record<string, string>;
  notes: string[];
}

export interface DecontaminateResult {
  rows: Row[];
  kept_indices: number[];
  report: DecontaminateReport;
}

const PY_WS = /[\s\x1c-\x1f\x85]+/g;
export const words = (t: unknown): string[] => (pyTruthy(t) ? pyStr(t) : '').toLowerCase().match(/[a-z0-9]+/g) ?? [];
export const norm = (t: unknown): string => (pyTruthy(t) ? pyStr(t) : '').toLowerCase().replace(PY_WS, ' ').trim();
export const rowId = (row: Row): string | null =>
  pyTruthy(row.scenario_id) ? pyStr(row.scenario_id) : pyTruthy(row.task_id) ? pyStr(row.task_id) : null;

function sourceRows(source: unknown, readSource?: (path: string) => unknown[]): Row[] {
  if (Array.isArray(source)) return source.filter(isObject);
  if (typeof source === 'string') {
    if (source.startsWith('ds_')) throw new StatsValueError(`decontaminate: platform dataset "${source}" cannot be fetched offline; export it to JSONL and pass the file`);
    if (!readSource) throw new StatsValueError(`decontaminate: "${source}" is a file path; load its rows first and pass the list`);
    return readSource(source).filter(isObject);
  }
  return []; // like the SDK iterating a non-list source: no rows in it
}

/** The eval side: ids, prompts for the semantic rule, and an n-gram index over every eval text. */
export interface EvalIndex {
  nEval: number;
  ids: Set<string>;
  prompts: Map<string, { text: string; id: string | null }>;
  norms: Set<string>;
  grams: Map<string, number[]>;
  nTexts: number;
}

export function buildEvalIndex(against: unknown, n: number, readSource?: (path: string) => unknown[]): EvalIndex {
  const sources = Array.isArray(against) && (against.length === 0 || !isObject(against[0])) ? against : [against];
  const index: EvalIndex = { nEval: 0, ids: new Set(), prompts: new Map(), norms: new Set(), grams: new Map(), nTexts: 0 };
  for (const source of sources) {
    for (const row of sourceRows(source, readSource)) {
      index.nEval++;
      const id = rowId(row);
      if (id !== null) index.ids.add(id);
      const promptText = pyTruthy(row.prompt) ? pyStr(row.prompt) : '';
      const promptNorm = norm(promptText);
      if (promptNorm && !index.prompts.has(promptNorm)) index.prompts.set(promptNorm, { text: promptText, id });
      const texts = [promptText];
      if (pyTruthy(row.answer)) texts.push(pyStr(row.answer));
      if (pyTruthy(row.reference)) texts.push(pyStr(row.reference));
      for (const text of texts) {
        const w = words(text);
        const key = norm(text);
        if (!w.length || index.norms.has(key)) continue;
        index.norms.add(key);
        const textNo = index.nTexts++;
        const seen = new Set<string>();
        for (let s = 0; s + n <= w.length; s++) {
          const gram = w.slice(s, s + n).join(' ');
          if (seen.has(gram)) continue;
          seen.add(gram);
          const list = index.grams.get(gram);
          if (list) list.push(textNo);
          else index.grams.set(gram, [textNo]);
        }
      }
    }
  }
  return index;
}

/** The first lexical rule that fires for a training row, or null. */
export function lexicalHit(row: Row, index: EvalIndex, n: number, fields: string[], threshold: number): Hit | null {
  const id = rowId(row);
  if (id !== null && index.ids.has(id)) return { field: 'task', match: 'same_task', coverage: 1.0, task: id };
  for (const field of fields) {
    const text = pyTruthy(row[field]) ? pyStr(row[field]) : '';
    const w = words(text);
    if (!w.length) continue;
    if (index.norms.has(norm(text))) return { field, match: 'exact', coverage: 1.0 };
    if (w.length < n) continue;
    const covered = new Map<number, Uint8Array>();
    const firstStart = new Map<number, number>();
    for (let s = 0; s + n <= w.length; s++) {
      const texts = index.grams.get(w.slice(s, s + n).join(' '));
      if (!texts) continue;
      for (const t of texts) {
        let marks = covered.get(t);
        if (!marks) { marks = new Uint8Array(w.length); covered.set(t, marks); firstStart.set(t, s); }
        marks.fill(1, s, s + n);
      }
    }
    if (!covered.size) continue;
    let best = -1;
    let bestCount = -1;
    for (const [t, marks] of covered) {
      let c = 0;
      for (const m of marks) c += m;
      if (c > bestCount || (c === bestCount && t < best)) { best = t; bestCount = c; }
    }
    const coverage = bestCount / w.length;
    if (threshold <= 0 || coverage >= threshold) {
      const s = firstStart.get(best) as number;
      return { field, match: w.slice(s, s + n).join(' ').slice(0, 120), coverage: pyRound(coverage, 3) };
    }
  }
  return null;
}

interface Prepared {
  result: DecontaminateResult;
  index: EvalIndex;
  candidates: number[];
  objectRows: Array<{ index: number; row: Row }>;
}

function prepare(rows: readonly unknown[], against: unknown, options: DecontaminateOptions): Prepared {
  const n = options.n ?? 8;
  if (!Number.isInteger(n) || n < 1) throw new StatsValueError(`decontaminate: n must be a whole number of at least 1 (got ${n})`);
  const fields = options.fields ?? ['prompt'];
  const threshold = Math.min(1, Math.max(0, options.overlap ?? 0.8));
  const index = buildEvalIndex(against, n, options.readSource);
  const objectRows = rows.flatMap((row, i) => (isObject(row) ? [{ index: i, row }] : []));
  const flagged: Array<{ index: number } & Hit> = [];
  const byField: Record<string, number> = {};
  const candidates: number[] = [];
  for (const { index: i, row } of objectRows) {
    const hit = lexicalHit(row, index, n, fields, threshold);
    if (hit) {
      flagged.push({ index: i, ...hit });
      byField[hit.field] = (byField[hit.field] ?? 0) + 1;
    } else candidates.push(i);
  }
  const rulesSkipped: Record<string, string> = {};
  const notes: string[] = [];
  const trainIds = objectRows.some(({ row }) => rowId(row) !== null);
  if (index.nEval > 0 && index.ids.size === 0) {
    rulesSkipped.same_task = `0 of ${index.nEval} evaluation rows carried a scenario_id or task_id`;
  } else if (index.nEval > 0 && objectRows.length > 0 && !trainIds) {
    rulesSkipped.same_task = `0 of ${objectRows.length} training rows carried a scenario_id or task_id`;
  }
  if (rulesSkipped.same_task) {
    const others = options.embedder ? 'the text rules and the semantic rule' : 'the text rules';
    notes.push(`${rulesSkipped.same_task}, so the same_task rule was not applied and n_same_task=0 says nothing about task overlap; only ${others} ran. Pass embedder= to see paraphrases the text rules miss.`);
  }
  if (options.embedder && index.nEval && index.prompts.size === 0) {
    rulesSkipped.semantic = `none of the ${index.nEval} evaluation rows carried a prompt to embed`;
    notes.push(`${rulesSkipped.semantic}, so the semantic rule you asked for with embedder= was not applied; n_semantic=0 is not a clearance.`);
  }
  const report: DecontaminateReport = {
    n: objectRows.length, n_kept: 0, n_contaminated: 0, contamination_rate: 0, n_same_task: 0, n_exact: 0, n_near: 0, n_semantic: 0,
    n_eval_rows: index.nEval, n_eval_texts: index.nTexts, ngram: n, overlap: threshold, similarity: null, fields: [...fields],
    by_field: byField, examples: flagged, rules_skipped: rulesSkipped, notes,
  };
  return { result: { rows: [], kept_indices: [], report }, index, candidates, objectRows };
}

function finish(p: Prepared, rows: readonly unknown[]): DecontaminateResult {
  const report = p.result.report;
  const flagged = report.examples.sort((a, b) => a.index - b.index);
  const flaggedSet = new Set(flagged.map((f) => f.index));
  const kept = p.objectRows.filter(({ index }) => !flaggedSet.has(index));
  report.n_contaminated = flagged.length;
  report.n_kept = kept.length;
  report.contamination_rate = report.n ? flagged.length / report.n : 0.0;
  report.n_same_task = flagged.filter((f) => f.match === 'same_task').length;
  report.n_exact = flagged.filter((f) => f.match === 'exact').length;
  report.n_semantic = flagged.filter((f) => f.match === 'semantic').length;
  report.n_near = flagged.length - report.n_exact - report.n_same_task - report.n_semantic;
  report.examples = flagged.slice(0, 20);
  return { rows: kept.map(({ index }) => rows[index] as Row), kept_indices: kept.map(({ index }) => index), report };
}

/** The lexical rules only (no embedder); use decontaminateAsync for the semantic rule. */
export function decontaminate(rows: readonly unknown[], against: unknown, options: DecontaminateOptions = {}): DecontaminateResult {
  if (options.embedder) throw new StatsValueError('decontaminate: an embedder is asynchronous; call decontaminateAsync');
  return finish(prepare(rows, against, options), rows);
}

/** All rules, including the semantic one when `embedder` is given. */
export async function decontaminateAsync(rows: readonly unknown[], against: unknown, options: DecontaminateOptions = {}): Promise<DecontaminateResult> {
  const prepared = prepare(rows, against, options);
  if (options.embedder) {
    const similarity = options.similarity ?? 0.85;
    if (!(similarity >= 0 && similarity <= 1)) throw new StatsValueError(`decontaminate: similarity is a cosine threshold between 0 and 1 (got ${similarity})`);
    const report = prepared.result.report;
    report.similarity = similarity;
    const hits = await semanticHits(report, prepared.index, prepared.candidates, rows, options.fields ?? ['prompt'], options.embedder, similarity);
    for (const hit of hits) {
      report.examples.push(hit);
      report.by_field[hit.field] = (report.by_field[hit.field] ?? 0) + 1;
    }
  }
  return finish(prepared, rows);
}
