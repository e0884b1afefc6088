// hack_scan's candidate columns (docs/hack-scan.md, "The hand tier", "The auto tier", "Conjunctions"): every
// graded row's hand features and the auto tier's terms as sparse columns, how varied each ask's rollouts are, and
// the pairwise ANDs of the strongest 0/1 features that beat both parents.
import { pyCompare } from '../text/py-text';
import type { Row } from './keys';
import { featureOf, isBinary, pooledSd, rhoWithin, withinSd, type Column, type Feature, type GroupScratch, type ScanFrame } from './hack-scan-features';
import { handFeatures, scanText, withExtra, type RowFeatures } from './hack-scan-rows';
import { autoTerms } from './hack-scan-terms';

export interface Columns {
  texts: string[];
  /** Name -> the column's non-zero rows and values, in the order the SDK's dict holds them. */
  columns: Map<string, Column>;
  /** Per row, a key equal for two rows exactly when their text and hand features are equal. */
  profiles: string[];
}

function userFeatures(row: Row, features: Record<string, (row: Row) => unknown>, out: RowFeatures): void {
  for (const [name, fn] of Object.entries(features)) {
    let value: unknown;
    try {
      value = fn(row);
    } catch {
      value = undefined;
    }
    if (typeof value === 'number') withExtra(out, name, value);
  }
}

export function handColumns(graded: readonly Row[], extra?: Record<string, (row: Row) => unknown>): Columns {
  const columns = new Map<string, Column>();
  const texts: string[] = new Array(graded.length);
  const profiles: string[] = new Array(graded.length);
  for (let i = 0; i < graded.length; i++) {
    const row = graded[i];
    const text = (texts[i] = scanText(row));
    const features = handFeatures(row, text);
    if (extra) userFeatures(row, extra, features);
    const sorted = features.slice().sort((a, b) => pyCompare(a[0], b[0]));
    profiles[i] = `${JSON.stringify(sorted)}\u0000${text}`;
    for (const [name, value] of features) {
      if (value === 0 || Number.isNaN(value)) continue;
      let column = columns.get(name);
      if (!column) columns.set(name, (column = { idx: [], val: [] }));
      column.idx.push(i);
      column.val.push(value);
    }
  }
  return { texts, columns, profiles };
}

/** The auto tier's terms as `contains:<term>` columns, after the hand tier's. */
export function addAutoColumns(columns: Map<string, Column>, texts: readonly string[], topK: number, minObs: number): void {
  const terms = autoTerms(texts, topK, minObs);
  terms.vocab.forEach((term, i) => columns.set(`contains:${term}`, { idx: terms.rows[i], val: terms.rows[i].map(() => 1) }));
}

/** Distinct rollouts (text and hand features) in an ask, at the median over asks of two or more; 1 when none. */
export function distinctPerAsk(profiles: readonly string[], multi: readonly Int32Array[]): number {
  const distinct = multi.map((idx) => new Set(Array.from(idx, (i) => profiles[i])).size).sort((a, b) => a - b);
  return distinct.length ? distinct[distinct.length >> 1] : 1;
}

export interface Ranked extends Feature {
  rho: number;
}

/**
 * Pairwise ANDs of the `seeds` strongest 0/1 features, on the raw indicators (centring does not commute with AND).
 * A conjunction is kept only when it is non-zero on at least `minObs` rows, narrower than both parents, and its
 * |rho| beats both of theirs: otherwise it is a parent, narrowed.
 */
export function conjunctions(features: readonly Ranked[], frame: ScanFrame, scratch: GroupScratch, seeds: number, minObs: number): Ranked[] {
  const binary = features.filter(isBinary).sort((a, b) => Math.abs(b.rho) - Math.abs(a.rho)).slice(0, Math.trunc(seeds));
  const mark = new Uint8Array(frame.n);
  const kept: Ranked[] = [];
  for (let a = 0; a < binary.length; a++) {
    const fa = binary[a];
    for (const i of fa.idx) mark[i] = 1;
    for (let b = a + 1; b < binary.length; b++) {
      const fb = binary[b];
      const both: number[] = [];
      for (const i of fb.idx) if (mark[i]) both.push(i);
      if (both.length < minObs || both.length >= fa.idx.length || both.length >= fb.idx.length) continue;
      const feature = featureOf(`${fa.name} AND ${fb.name}`, both, null, [fa, fb]) as Ranked;
      feature.sdWithin = withinSd(feature, frame, scratch);
      feature.sdPooled = pooledSd(feature, frame.n);
      if (feature.sdPooled <= 0) continue;
      feature.rho = rhoWithin(feature, frame);
      if (Math.abs(feature.rho) > Math.max(Math.abs(fa.rho), Math.abs(fb.rho))) kept.push(feature);
    }
    for (const i of fa.idx) mark[i] = 0;
  }
  return kept;
}
