// delta_report's view of one side (stats-semantics.md section 8): everything the report reads from a row set,
// gathered one row at a time (a fold). The report is computed from two such sides (deltaReportOfSides), so a
// worker can fold each side in its own thread, and halves of a side in two, while no row crosses between threads.
// The fold is plain data (structured-clone safe) and merges in order: the fold of consecutive parts merged is
// exactly the fold of all their rows (test/unit/stats/delta-side.test.ts).
import { groupOf, SLICE_KEYS, type Grouper } from './delta-slices';
import { metricKey, type DeltaOptions } from './delta-types';
import { isObject, pyStr, taskKey } from './keys';
import { addPassAtRow, mergePassAt, passAtFold, type PassAtFold } from './pass-at-fold';
import { pyRound } from './py-format';
import { binaryReward, markerValue } from './readers';
import { addToTask, emptyTaskSums, mergeTaskSums, type TaskSums } from './task-sums';
import { runIdOf } from './variance';

/** What a side's fold needs to know of the report's options. */
export interface DeltaPlan {
  /** Metrics (metric keys) whose every value is looked at: the must_not_regress guards (degenerate check). */
  guarded: string[];
  /** The groupings folded: the given `by`, or each slice key the report may pick (SLICE_KEYS), or none. */
  groupings: Array<string | Grouper>;
  /** The metrics groups are compared on: pass_at_1, and the target's when one is named. */
  groupMetrics: string[];
}

export interface SideGroup {
  rows: number;
  sums: Map<string, TaskSums>;
}

/** One side's fold. */
export interface DeltaSide {
  plan: DeltaPlan;
  /** pass_at's own fold: its task groups give the run config (k, n_tasks) and each task's pass_at rate. */
  passAt: PassAtFold;
  /** Marker names on this side's rows (markerNamesOf). */
  markerNames: Set<string>;
  /** Metric key -> task sums: pass_at_1 and `marker:NAME` for every marker seen. */
  sums: Map<string, TaskSums>;
  /** Guarded metric -> how many values, the first (rounded to 9 places) and whether another was seen. */
  values: Map<string, { count: number; first: number; several: boolean }>;
  /** lineage.eval_run values seen (distinctEvalRuns). */
  evalRuns: Set<string>;
  /** eval_variance(by="eval_run") on this side: run label -> metric key -> task sums, runs in order of first appearance. */
  runs: Map<string, Map<string, TaskSums>>;
  /** Each slice key's non-empty values (detectSliceKey). */
  sliceValues: Map<string, Set<string>>;
  /** Grouping name -> group -> its rows and their task sums per group metric (byGroup). */
  groups: Map<string, Map<string, SideGroup>>;
  /** Rows per task, object rows only, each counting 1 (the unequal-k warning reads the counts). */
  taskRows: TaskSums;
}

/** A grouping's name: the row key, or a callable's own name. */
export const groupingName = (by: string | Grouper): string => (typeof by === 'string' ? by : by.name || 'callable');

/** The plan delta_report's options call for. */
export function deltaPlan(options: Pick<DeltaOptions, 'must_not_regress' | 'by' | 'target'>): DeltaPlan {
  const mnr = options.must_not_regress ?? [];
  const guarded = [...new Set((Array.isArray(mnr) ? mnr : Object.keys(mnr)).map((m) => metricKey(String(m))))];
  const by = options.by;
  const groupings: Array<string | Grouper> = by === null || by === undefined || by === true ? [...SLICE_KEYS] : by === false ? [] : [by as string | Grouper];
  const groupMetrics = ['pass_at_1'];
  if (options.target) {
    const target = metricKey(options.target);
    if (target !== 'pass_at_1') groupMetrics.push(target);
  }
  return { guarded, groupings, groupMetrics };
}

export function deltaSide(plan: DeltaPlan): DeltaSide {
  return {
    plan, passAt: passAtFold(), markerNames: new Set(), sums: new Map([['pass_at_1', emptyTaskSums()]]), values: new Map(), evalRuns: new Set(), runs: new Map(),
    sliceValues: new Map(SLICE_KEYS.map((key) => [key, new Set<string>()])), groups: new Map(plan.groupings.map((by) => [groupingName(by), new Map()])), taskRows: emptyTaskSums(),
  };
}

function addTo(sums: Map<string, TaskSums>, metric: string, task: string, value: number): void {
  let perTask = sums.get(metric);
  if (!perTask) sums.set(metric, (perTask = emptyTaskSums()));
  addToTask(perTask, task, 1, value);
}

/** One array of the row's metric values for every row (no object per row); safe because add never re-enters. */
const rowMetrics: string[] = [];
const rowValues: number[] = [];

/** `marker:NAME` for each marker name met, made once (not once per row). */
const markerKeys = new Map<string, string>();
const markerKey = (name: string): string => {
  let key = markerKeys.get(name);
  if (key === undefined) {
    key = `marker:${name}`;
    if (markerKeys.size < 10_000) markerKeys.set(name, key);
  }
  return key;
};

const sameValue = (a: number, b: number) => a === b || (a !== a && b !== b); // as a Set compares (NaN is one value)

export function addDeltaSideRow(side: DeltaSide, row: unknown): void {
  if (!isObject(row)) {
    addPassAtRow(side.passAt, row);
    return;
  }
  const task = taskKey(row);
  addPassAtRow(side.passAt, row, task);
  addToTask(side.taskRows, task, 1, 1);
  let n = 0;
  const reward = binaryReward(row);
  if (reward !== null) {
    rowMetrics[n] = 'pass_at_1';
    rowValues[n++] = reward;
  }
  const markers = row.markers;
  if (isObject(markers)) {
    for (const name of Object.keys(markers)) {
      side.markerNames.add(name);
      const v = markerValue(row, name);
      if (v === null) continue;
      rowMetrics[n] = markerKey(name);
      rowValues[n++] = v;
    }
  }
  for (let i = 0; i < n; i++) addTo(side.sums, rowMetrics[i], task, rowValues[i]);
  const plan = side.plan;
  for (let g = 0; g < plan.guarded.length; g++) {
    const metric = plan.guarded[g];
    const i = rowMetrics.indexOf(metric);
    if (i < 0 || i >= n) continue;
    const rounded = pyRound(rowValues[i], 9);
    const seen = side.values.get(metric);
    if (!seen) side.values.set(metric, { count: 1, first: rounded, several: false });
    else {
      seen.count++;
      if (!sameValue(seen.first, rounded)) seen.several = true;
    }
  }
  const lineage = row.lineage;
  if (isObject(lineage)) {
    const run = lineage.eval_run;
    if (run !== null && run !== undefined) side.evalRuns.add(typeof run === 'string' ? `s:${run}` : JSON.stringify(run));
  }
  if (n > 0 && (row.eval_run !== undefined || lineage !== undefined)) {
    const id = runIdOf(row, 'eval_run');
    if (id !== null && id !== undefined) {
      const label = pyStr(id);
      let run = side.runs.get(label);
      if (!run) side.runs.set(label, (run = new Map()));
      for (let i = 0; i < n; i++) addTo(run, rowMetrics[i], task, rowValues[i]);
    }
  }
  for (let k = 0; k < SLICE_KEYS.length; k++) {
    const v = row[SLICE_KEYS[k]];
    if (v !== null && v !== undefined && v !== '') (side.sliceValues.get(SLICE_KEYS[k]) as Set<string>).add(pyStr(v));
  }
  for (let b = 0; b < plan.groupings.length; b++) {
    const by = plan.groupings[b];
    const g = groupOf(row, by);
    if (g === null) continue;
    const groups = side.groups.get(typeof by === 'string' ? by : groupingName(by)) as Map<string, SideGroup>;
    let entry = groups.get(g);
    if (!entry) groups.set(g, (entry = { rows: 0, sums: new Map() }));
    entry.rows++;
    for (let m = 0; m < plan.groupMetrics.length; m++) {
      const i = rowMetrics.indexOf(plan.groupMetrics[m]);
      if (i >= 0 && i < n) addTo(entry.sums, plan.groupMetrics[m], task, rowValues[i]);
    }
  }
}

/** `later`'s task sums appended to `earlier`'s (tasks new to `earlier` keep their order after its own). */
function mergeSums(earlier: Map<string, TaskSums>, later: Map<string, TaskSums>): void {
  for (const [metric, perTask] of later) {
    const into = earlier.get(metric);
    if (into) mergeTaskSums(into, perTask);
    else earlier.set(metric, perTask);
  }
}

/** The fold of `earlier`'s rows followed by `later`'s, written into `earlier`. */
export function mergeDeltaSides(earlier: DeltaSide, later: DeltaSide): DeltaSide {
  mergePassAt(earlier.passAt, later.passAt);
  for (const name of later.markerNames) earlier.markerNames.add(name);
  mergeSums(earlier.sums, later.sums);
  for (const [metric, seen] of later.values) {
    const into = earlier.values.get(metric);
    if (!into) earlier.values.set(metric, seen);
    else {
      into.count += seen.count;
      into.several ||= seen.several || !sameValue(into.first, seen.first);
    }
  }
  for (const run of later.evalRuns) earlier.evalRuns.add(run);
  for (const [label, sums] of later.runs) {
    const into = earlier.runs.get(label);
    if (into) mergeSums(into, sums);
    else earlier.runs.set(label, sums);
  }
  for (const [key, values] of later.sliceValues) for (const v of values) earlier.sliceValues.get(key)?.add(v);
  for (const [name, groups] of later.groups) {
    const into = earlier.groups.get(name) as Map<string, SideGroup>;
    for (const [g, entry] of groups) {
      const known = into.get(g);
      if (!known) into.set(g, entry);
      else {
        known.rows += entry.rows;
        mergeSums(known.sums, entry.sums);
      }
    }
  }
  mergeTaskSums(earlier.taskRows, later.taskRows);
  return earlier;
}

export function deltaSideOf(rows: readonly unknown[], plan: DeltaPlan): DeltaSide {
  const side = deltaSide(plan);
  for (const row of rows) addDeltaSideRow(side, row);
  return side;
}

const NO_SUMS: Readonly<TaskSums> = Object.freeze(emptyTaskSums());

/** A metric's task sums in `sums` (a side's, a run's or a group's; empty when no row carries it). */
export const metricSums = (sums: ReadonlyMap<string, TaskSums>, metric: string): Readonly<TaskSums> => sums.get(metric) ?? NO_SUMS;

/** A side's task sums of a metric (empty when no row carries it). */
export const sumsOf = (side: DeltaSide, metric: string): Readonly<TaskSums> => metricSums(side.sums, metric);
