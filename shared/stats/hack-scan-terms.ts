// hack_scan's auto tier (docs/hack-scan.md, "The auto tier"): the most common words and word pairs of the agent's
// text, each a 0/1 feature. Terms are counted once per text; ties in count go to the earlier term in code-point order.
import { pyCompare, PY_SPACE } from '../text/py-text';

// Words of two or more letters or underscores, runs of digits, and any other single character but a space.
const TOKEN = new RegExp(`[a-z_]{2,}|\\p{Nd}+|[^${PY_SPACE}a-z_\\p{Nd}]`, 'gu');
/** Pair keys: first token id times this plus the second (token ids stay far below it). */
const PAIR = 0x4000000;

export interface AutoTerms {
  /** The `top_k` terms present in at least `min_obs` texts and absent from at least one, most common first. */
  vocab: string[];
  /** Per vocab term, the texts (indices, ascending) that hold it. */
  rows: number[][];
}

class GrowList {
  data = new Int32Array(1 << 16);
  length = 0;
  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new Int32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = value;
  }
}

export function autoTerms(texts: readonly string[], topK: number, minObs: number): AutoTerms {
  const tokenIds = new Map<string, number>();
  const tokens: string[] = [];
  const unigramTerm: number[] = [];
  const pairTerm = new Map<number, number>();
  const termFirst: number[] = [];
  const termSecond: number[] = []; // -1: a single word
  const counts: number[] = [];
  const lastText: number[] = [];
  const present = new GrowList();
  const starts = new Int32Array(texts.length + 1);

  const note = (term: number, text: number) => {
    if (lastText[term] === text) return;
    lastText[term] = text;
    counts[term]++;
    present.push(term);
  };
  const newTerm = (first: number, second: number): number => {
    termFirst.push(first);
    termSecond.push(second);
    counts.push(0);
    lastText.push(-1);
    return counts.length - 1;
  };

  for (let t = 0; t < texts.length; t++) {
    starts[t] = present.length;
    let previous = -1;
    TOKEN.lastIndex = 0;
    const lower = texts[t].toLowerCase();
    for (let match = TOKEN.exec(lower); match !== null; match = TOKEN.exec(lower)) {
      let id = tokenIds.get(match[0]);
      if (id === undefined) {
        id = tokens.length;
        tokenIds.set(match[0], id);
        tokens.push(match[0]);
        unigramTerm.push(newTerm(id, -1));
      }
      note(unigramTerm[id], t);
      if (previous >= 0) {
        const key = previous * PAIR + id;
        let term = pairTerm.get(key);
        if (term === undefined) pairTerm.set(key, (term = newTerm(previous, id)));
        note(term, t);
      }
      previous = id;
    }
  }
  starts[texts.length] = present.length;

  const n = texts.length;
  const textOf = (term: number) => (termSecond[term] < 0 ? tokens[termFirst[term]] : `${tokens[termFirst[term]]} ${tokens[termSecond[term]]}`);
  const candidates: Array<{ term: number; text: string; count: number }> = [];
  for (let term = 0; term < counts.length; term++) {
    if (counts[term] >= minObs && counts[term] < n) candidates.push({ term, text: textOf(term), count: counts[term] });
  }
  candidates.sort((a, b) => b.count - a.count || pyCompare(a.text, b.text));
  const chosen = candidates.slice(0, topK);

  const slot = new Int32Array(counts.length).fill(-1);
  chosen.forEach((candidate, i) => (slot[candidate.term] = i));
  const rows: number[][] = chosen.map(() => []);
  for (let t = 0; t < n; t++) {
    for (let at = starts[t]; at < starts[t + 1]; at++) {
      const i = slot[present.data[at]];
      if (i >= 0) rows[i].push(t);
    }
  }
  return { vocab: chosen.map((candidate) => candidate.text), rows };
}
