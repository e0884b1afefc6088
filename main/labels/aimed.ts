// The aimed queue: the rows whose labels settle the judge's trust verdict fastest (docs/labels.md, "Aimed").
// 1. Rows where the annotators disagree (or tie) and this annotator has not voted: one label there decides a gold.
// 2. Then graded rows this annotator has not labeled, balanced by judge class: each class kept at its share of
//    the dataset's graded rows (the class furthest under its share goes next), so judge-fail rows arrive from the
//    start and the sample's agreement and leak rate estimate the dataset's. A 50/50 sample does not: it
//    over-counts the rarer class and, measured on a seeded run, misjudged a judge that passes failures in
//    17 of 40 runs (docs/labels.md, "Aimed"). Within a
//    class, first the tasks, then the categories, with the fewest gold rows so far (one row per task before a
//    second), ties in the dataset's seeded order.
// Ungraded rows are left out: without a judge verdict a label cannot move agreement.
import type { QueueColumns } from '../rows/index';
import type { LabelState } from './current';
import { judgeClass } from './queue-rows';

export interface Aimed {
  index: number;
  why: string;
}

function disagree(votes: Map<string, 0 | 1> | undefined): boolean {
  if (!votes || votes.size < 2) return false;
  const values = [...votes.values()];
  return values.some((value) => value !== values[0]);
}

export function aimedOrder(rows: readonly QueueColumns[], candidates: readonly number[], state: LabelState, annotator: string): Aimed[] {
  const goldOf = (row: QueueColumns) => state.gold.get(row.rowKey ?? '') ?? row.goldState;
  const taskGold = new Map<string, number>();
  const categoryGold = new Map<string, number>();
  const classGold = { pass: 0, fail: 0 };
  const classSize = { pass: 0, fail: 0 };
  for (const row of rows) {
    const graded = judgeClass(row.reward);
    if (graded !== 'ungraded') classSize[graded]++;
    if (goldOf(row) === 'none') continue;
    taskGold.set(row.task, (taskGold.get(row.task) ?? 0) + 1);
    if (row.category !== null) categoryGold.set(row.category, (categoryGold.get(row.category) ?? 0) + 1);
    const kind = judgeClass(row.reward);
    if (kind !== 'ungraded') classGold[kind]++;
  }
  const first: Aimed[] = [];
  const byClass: Record<'pass' | 'fail', Array<{ index: number; task: number; category: number; at: number }>> = { pass: [], fail: [] };
  // Counted per judge class, so each class spreads over the tasks and categories on its own.
  const seen = { pass: { task: new Map<string, number>(), category: new Map<string, number>() }, fail: { task: new Map<string, number>(), category: new Map<string, number>() } };
  candidates.forEach((index, at) => {
    const row = rows[index];
    const kind = judgeClass(row.reward);
    const votes = state.votes.get(row.rowKey ?? '');
    if (kind === 'ungraded' || votes?.has(annotator)) return;
    if (disagree(votes)) {
      first.push({ index, why: 'annotators disagree here: your label settles its gold' });
      return;
    }
    if (goldOf(row) !== 'none') return;
    const { task: seenTask, category: seenCategory } = seen[kind];
    const task = (taskGold.get(row.task) ?? 0) + (seenTask.get(row.task) ?? 0);
    seenTask.set(row.task, (seenTask.get(row.task) ?? 0) + 1);
    const categoryKey = row.category ?? '';
    const category = (categoryGold.get(categoryKey) ?? 0) + (seenCategory.get(categoryKey) ?? 0);
    seenCategory.set(categoryKey, (seenCategory.get(categoryKey) ?? 0) + 1);
    byClass[kind].push({ index, task, category, at });
  });
  for (const list of Object.values(byClass)) list.sort((a, b) => a.task - b.task || a.category - b.category || a.at - b.at);
  const out = first;
  const taken = { pass: 0, fail: 0 };
  while (taken.pass < byClass.pass.length || taken.fail < byClass.fail.length) {
    const passLeft = taken.pass < byClass.pass.length;
    const failLeft = taken.fail < byClass.fail.length;
    const have = { pass: classGold.pass + taken.pass, fail: classGold.fail + taken.fail };
    let kind: 'pass' | 'fail';
    if (!failLeft) kind = 'pass';
    else if (!passLeft) kind = 'fail';
    else {
      // The class furthest under its share of the dataset.
      const all = have.pass + have.fail;
      const share = classSize.pass / (classSize.pass + classSize.fail);
      kind = have.pass - share * all <= have.fail - (1 - share) * all ? 'pass' : 'fail';
    }
    const pick = byClass[kind][taken[kind]++];
    const side = kind === 'pass' ? 'judge-pass' : 'judge-fail';
    const why = pick.task === 0 ? `a task with no gold yet; ${side} rows are under their share` : `${side} rows are under their share of the gold`;
    out.push({ index: pick.index, why });
  }
  return out;
}
