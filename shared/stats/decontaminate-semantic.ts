// The semantic rule of decontaminate (stats-semantics.md section 11 step 5): cosine of embeddings against eval prompts.
import { StatsValueError } from './errors';
import { isObject, pyStr, pyTruthy, type Row } from './keys';
import { pyFixed, pyPercent, pyRound } from './py-format';
import type { DecontaminateReport, EvalIndex } from './decontaminate';

/** Embeds texts; returns one vector per text, in order. */
export type Embedder = (texts: string[]) => Promise<number[][]> | number[][];

export const DISTINCT_TASK_PERCENTILE = 0.99;

function unitVectors(vectors: number[][]): number[][] {
  return vectors.map((vec) => {
    const floats = vec.map(Number);
    let s = 0;
    for (const x of floats) s += x * x;
    const len = Math.sqrt(s);
    return len > 0 ? floats.map((x) => x / len) : floats;
  });
}

async function embed(embedder: Embedder, texts: string[]): Promise<number[][]> {
  if (!texts.length) return [];
  const vectors = [...(await embedder(texts))];
  if (vectors.length !== texts.length) {
    throw new StatsValueError(`embedder returned ${vectors.length} vectors for ${texts.length} texts; it must return exactly one vector per text, in order`);
  }
  return unitVectors(vectors);
}

function dot(a: number[], b: number[]): number {
  let s = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) s += a[i] * b[i];
  return s;
}

/** 99th percentile cosine over eval-prompt pairs whose recorded task ids differ; null under 2 such pairs. */
export function distinctTaskSimilarity(vectors: number[][], ids: Array<string | null>): number | null {
  const sims: number[] = [];
  for (let a = 0; a < vectors.length; a++) {
    if (ids[a] === null) continue;
    for (let b = a + 1; b < vectors.length; b++) {
      if (ids[b] === null || ids[b] === ids[a]) continue;
      sims.push(dot(vectors[a], vectors[b]));
    }
  }
  if (sims.length < 2) return null;
  sims.sort((x, y) => x - y);
  return Math.min(1, sims[Math.round(DISTINCT_TASK_PERCENTILE * (sims.length - 1))]);
}

export interface SemanticHit {
  index: number;
  field: string;
  match: 'semantic';
  similarity: number;
  eval_prompt: string;
}

/** Flags kept rows whose text reads like an eval prompt of a different (or no) task; adds notes; returns the hits. */
export async function semanticHits(
  report: DecontaminateReport, index: EvalIndex, kept: number[], rows: readonly unknown[], fields: string[], embedder: Embedder, similarity: number,
): Promise<SemanticHit[]> {
  const evalNorms = [...index.prompts.keys()];
  if (!evalNorms.length) return [];
  const evalVecs = await embed(embedder, evalNorms.map((k) => index.prompts.get(k)!.text));
  const evalIds = evalNorms.map((k) => index.prompts.get(k)!.id);
  const alike = distinctTaskSimilarity(evalVecs, evalIds);
  if (alike !== null) {
    let note = `with this embedder, distinct tasks read up to ${pyFixed(alike, 2)} alike (${pyPercent(DISTINCT_TASK_PERCENTILE)} percentile over ${evalNorms.length} eval prompts with different task ids); a threshold below that flags tasks that merely share a domain`;
    if (similarity <= alike) note += `. similarity=${similarity} is below it; raise similarity= above ${pyFixed(alike, 2)} to flag paraphrases only`;
    report.notes.push(`${note}.`);
  }
  const candidates: Array<{ i: number; field: string; text: string }> = [];
  for (const i of kept) {
    const row = rows[i] as Row;
    for (const field of fields) {
      const text = pyTruthy(row[field]) ? pyStr(row[field]) : '';
      if (text.trim()) candidates.push({ i, field, text });
    }
  }
  const vecs = await embed(embedder, candidates.map((c) => c.text));
  const hits = new Map<number, SemanticHit>();
  candidates.forEach((c, n) => {
    if (hits.has(c.i)) return;
    const row = rows[c.i];
    const task = isObject(row) ? (pyTruthy(row.scenario_id) ? pyStr(row.scenario_id) : pyTruthy(row.task_id) ? pyStr(row.task_id) : null) : null;
    let top = -1;
    let topJ = -1;
    evalVecs.forEach((ev, j) => {
      if (task !== null && evalIds[j] === task) return;
      const sim = dot(vecs[n], ev);
      if (sim > top) { top = sim; topJ = j; }
    });
    if (topJ >= 0 && top >= similarity) {
      hits.set(c.i, { index: c.i, field: c.field, match: 'semantic', similarity: pyRound(Math.min(1, top), 4), eval_prompt: index.prompts.get(evalNorms[topJ])!.text.slice(0, 120) });
    }
  });
  const out = [...hits.values()].sort((a, b) => a.index - b.index);
  if (out.length) {
    report.notes.push(`${out.length} row(s) read alike to an eval prompt (similarity >= ${similarity}); that is a question about task identity, not a verdict: check them before treating them as the same task.`);
  }
  return out;
}
