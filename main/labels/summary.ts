// labels.summary: each annotator's current labels, and Cohen's kappa for every pair over the rows both labeled
// (the kappa of shared/stats/agreement.ts, one annotator read as the "judge" and the other as the gold).
import { kappa } from '../../shared/stats/agreement';
import { pyRound } from '../../shared/stats/py-format';
import type { Db } from '../db/connection';
import { currentVotes } from './current';

export function labelSummary(db: Db, datasetId: string) {
  const { votes } = currentVotes(db, datasetId);
  const counts = new Map<string, { labels: number; pass: number; fail: number }>();
  let multi = 0;
  let disagreements = 0;
  for (const byAnnotator of votes.values()) {
    for (const [annotator, value] of byAnnotator) {
      const count = counts.get(annotator) ?? { labels: 0, pass: 0, fail: 0 };
      count.labels++;
      if (value === 1) count.pass++;
      else count.fail++;
      counts.set(annotator, count);
    }
    if (byAnnotator.size > 1) {
      multi++;
      const values = [...byAnnotator.values()];
      if (values.some((value) => value !== values[0])) disagreements++;
    }
  }
  const names = [...counts.keys()].sort();
  const pairs = [];
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      const table = { tp: 0, fp: 0, fn: 0, tn: 0 };
      for (const byAnnotator of votes.values()) {
        const a = byAnnotator.get(names[i]);
        const b = byAnnotator.get(names[j]);
        if (a === undefined || b === undefined) continue;
        if (a === 1) b === 1 ? table.tp++ : table.fp++;
        else b === 1 ? table.fn++ : table.tn++;
      }
      const n = table.tp + table.fp + table.fn + table.tn;
      pairs.push({ a: names[i], b: names[j], n, agreement: n ? pyRound((table.tp + table.tn) / n, 4) : null, kappa: kappa(table.tp, table.fp, table.fn, table.tn) });
    }
  }
  return {
    annotators: names.map((annotator) => ({ annotator, ...(counts.get(annotator) as { labels: number; pass: number; fail: number }) })),
    pairs,
    rows_labeled: votes.size,
    multi_labeled: multi,
    disagreements,
  };
}
