// Queries on pair_verdicts and pair_labels (migration 0013), in one place.
import type { PairWinner } from '../../../shared/judging/pairwise';
import type { PairPick } from '../../../shared/judging/pair-agreement';
import type { Db } from '../connection';

export interface PairRef {
  task: string;
  index: number;
}

const pairId = (task: string, index: number) => `${index}\u0000${task}`;

/** The latest judge run over A and B replaces the verdicts of the one before. */
export function savePairVerdicts(db: Db, a: string, b: string, judge: string, verdicts: Array<PairRef & { winner: PairWinner | null }>): void {
  const now = new Date().toISOString();
  const insert = db.prepare('INSERT INTO pair_verdicts (a_id, b_id, task, pair_index, judge, winner, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
  db.transaction(() => {
    db.prepare('DELETE FROM pair_verdicts WHERE a_id = ? AND b_id = ?').run(a, b);
    for (const v of verdicts) insert.run(a, b, v.task, v.index, judge, v.winner, now);
  })();
}

export function pairVerdicts(db: Db, a: string, b: string): { judge: string | null; byPair: Map<string, PairWinner | null> } {
  const rows = db.prepare('SELECT task, pair_index, judge, winner FROM pair_verdicts WHERE a_id = ? AND b_id = ?').all(a, b) as Array<{ task: string; pair_index: number; judge: string; winner: PairWinner | null }>;
  return { judge: rows[0]?.judge ?? null, byPair: new Map(rows.map((r) => [pairId(r.task, r.pair_index), r.winner])) };
}

export function appendPairLabel(db: Db, a: string, b: string, ref: PairRef, annotator: string, pick: PairPick | null): number {
  const out = db.prepare('INSERT INTO pair_labels (a_id, b_id, task, pair_index, annotator, pick, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)').run(a, b, ref.task, ref.index, annotator, pick, new Date().toISOString());
  return Number(out.lastInsertRowid);
}

/**
 * Each annotator's current pick per pair (their latest record; a null one withdraws it), and the pair's pick for
 * the agreement: the latest current pick of anyone.
 */
export function currentPairPicks(db: Db, a: string, b: string): Map<string, { latest: PairPick; byAnnotator: Map<string, PairPick> }> {
  const rows = db.prepare('SELECT task, pair_index, annotator, pick FROM pair_labels WHERE a_id = ? AND b_id = ? ORDER BY label_id').all(a, b) as Array<{ task: string; pair_index: number; annotator: string; pick: PairPick | null }>;
  const mine = new Map<string, Map<string, { pick: PairPick | null; order: number }>>();
  rows.forEach((r, order) => {
    const id = pairId(r.task, r.pair_index);
    const byAnnotator = mine.get(id) ?? new Map();
    byAnnotator.set(r.annotator, { pick: r.pick, order });
    mine.set(id, byAnnotator);
  });
  const out = new Map<string, { latest: PairPick; byAnnotator: Map<string, PairPick> }>();
  for (const [id, byAnnotator] of mine) {
    const current = [...byAnnotator].filter(([, v]) => v.pick !== null).sort((x, y) => y[1].order - x[1].order);
    if (current.length) out.set(id, { latest: current[0][1].pick as PairPick, byAnnotator: new Map(current.map(([who, v]) => [who, v.pick as PairPick])) });
  }
  return out;
}

export { pairId };
