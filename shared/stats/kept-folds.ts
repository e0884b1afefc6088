// Folds a dataset keeps: a statistic's fold of a whole dataset is stored with the dataset version it read
// (main/rows/kept-folds.ts) and read back while that version stands, instead of parsing every row again. Every
// write bumps the version, so a kept fold is never stale; it is only ever missing, and then the rows are folded.
// The fold the compare screen opens with is kept from the moment the rows are written: a run folds its rows as they
// land (foldsKeptAtWrite, main/rows/run-folds.ts), and an import of large rows as its parse workers read them
// (main/datasets/parse-block.ts), so the first report on two finished runs or imports reads two folds, not 200k
// rows. Any other dataset keeps the fold its first such statistic made.
import { addDeltaSideRow, deltaPlan, deltaSide, mergeDeltaSides, type DeltaPlan, type DeltaSide } from './delta-side';

/**
 * What makes a fold keepable: its name, and a format raised whenever its state's shape or meaning changes (what
 * add and merge put in it), so a fold kept by older code is never read by newer. test/unit/rows/kept-folds.test.ts
 * pins the state of a fixed row set and fails when it changes without a new format.
 */
export interface KeepAs {
  as: string;
  format: number;
}

/** The key a fold is kept under: its name and format, and its start key (folds started alike are interchangeable). */
export const keptFoldKey = (keep: KeepAs, startKey: string): string => `${keep.as}/${keep.format}\u0000${startKey}`;

/** A fold a writer (a run) keeps as it appends rows, started with the inputs the screens ask with by default. */
export interface FoldKeptAtWrite<State = unknown> {
  key: string;
  start(): State;
  add(state: State, row: unknown): void;
  /** The fold of `earlier`'s rows followed by `later`'s (an import folds each block apart: parse-block.ts). */
  merge(earlier: State, later: State): State;
}

/** delta_report's (and compare_report's) fold of one side. */
export const DELTA_SIDE_KEEP: KeepAs = { as: 'delta_side', format: 4 };

/** What a delta side's start reads of the params: its plan (deltaSidesFold's start key). */
export const deltaSideStartKey = (plan: DeltaPlan): string => JSON.stringify(plan);

/** A plan whose groupings are all row keys: a callable grouping (code callers only) has no key to keep it by. */
export const keepablePlan = (plan: DeltaPlan): boolean => plan.groupings.every((by) => typeof by === 'string');

/**
 * The folds a run keeps as it writes: the delta side of the compare screen's opening report (target pass_at_1, no
 * guards, no `by`: its plan is that of no options at all).
 */
export function foldsKeptAtWrite(): FoldKeptAtWrite[] {
  const plan = deltaPlan({});
  const kept: FoldKeptAtWrite<DeltaSide> = {
    key: keptFoldKey(DELTA_SIDE_KEEP, deltaSideStartKey(plan)),
    start: () => deltaSide(plan),
    add: addDeltaSideRow,
    merge: mergeDeltaSides,
  };
  return [kept as FoldKeptAtWrite];
}
