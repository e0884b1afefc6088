// The labels that stand: per row, each annotator's current label (their latest record; a withdrawal removes it),
// and the gold each labeled row now has (its own gold_labels plus those votes, as attach_labels derives it).
// Kept per dataset and brought up to date from the labels appended since (labels are append-only), so a queue or
// progress read after a label costs that label, not every label of the dataset.
import type { Db } from '../db/connection';
import { countRows, currentLabels, goldStateFromOwn, labelsSince, rowsByKey, type GoldState, type KeyedRow, type LabelRecord } from '../rows/index';

export interface LabelState {
  /** row key -> annotator -> current value (0 or 1). */
  votes: Map<string, Map<string, 0 | 1>>;
  /** row key -> the gold the row has with its labels (only rows that have app labels). */
  gold: Map<string, GoldState>;
}

/** Each labeled row (its ordinal, the gold it arrived with), by key (keys no row carries are absent). */
export type LabeledOwners = Map<string, KeyedRow>;

interface Tracked extends LabelState {
  lastId: number;
  count: number;
  rowCount: number;
  records: Map<string, LabelRecord[]>;
  owners: LabeledOwners;
  /** Keys whose gold (and, for new keys, owner) is still to be derived. */
  stale: Set<string>;
}

const caches = new WeakMap<Db, Map<string, Tracked>>();
const MAX_CACHED = 4;

const fresh = (rowCount: number): Tracked => ({ lastId: 0, count: 0, rowCount, records: new Map(), votes: new Map(), gold: new Map(), owners: new Map(), stale: new Set() });

/** The dataset's labels as of now: the cached ones plus those appended since (or all again if any went away). */
function tracked(db: Db, datasetId: string): Tracked {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const rowCount = countRows(db, datasetId);
  let state = cache.get(datasetId) ?? fresh(rowCount);
  let since = labelsSince(db, datasetId, state.lastId);
  // Labels are only appended; anything else (a dataset's labels deleted with it) reads them all again.
  if (state.count + since.labels.length !== since.total || since.lastId < state.lastId) {
    state = fresh(rowCount);
    since = labelsSince(db, datasetId, 0);
  }
  if (state.rowCount !== rowCount) {
    // Rows were appended: a key's row may have changed (a repeated key stands for its last row).
    state.rowCount = rowCount;
    state.owners.clear();
    state.gold.clear();
    for (const key of state.records.keys()) state.stale.add(key);
  }
  for (const label of since.labels) {
    const list = state.records.get(label.row_key);
    if (list) list.push(label);
    else state.records.set(label.row_key, [label]);
    state.stale.add(label.row_key);
    state.lastId = label.label_id;
  }
  state.count = since.total;
  for (const label of since.labels) {
    const standing = currentLabels(state.records.get(label.row_key) ?? []);
    if (standing.length) state.votes.set(label.row_key, new Map(standing.map((l) => [l.annotator, l.value as 0 | 1])));
    else state.votes.delete(label.row_key);
  }
  cache.delete(datasetId);
  cache.set(datasetId, state);
  while (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value as string);
  return state;
}

/** Current votes per row key, and every row key's label records in append order. Read-only: they are cached. */
export function currentVotes(db: Db, datasetId: string): { votes: Map<string, Map<string, 0 | 1>>; records: Map<string, LabelRecord[]> } {
  const { votes, records } = tracked(db, datasetId);
  return { votes, records };
}

/** Current votes and the gold of every row that has app labels, and those rows (looked up by their keys). */
export function labelState(db: Db, datasetId: string): LabelState & { owners: LabeledOwners } {
  const state = tracked(db, datasetId);
  if (state.stale.size) {
    const keys = [...state.stale];
    state.stale.clear();
    for (const [key, owner] of rowsByKey(db, datasetId, keys.filter((key) => !state.owners.has(key)))) state.owners.set(key, owner);
    for (const key of keys) {
      const owner = state.owners.get(key);
      if (owner) state.gold.set(key, goldStateFromOwn(owner.ownLabels, owner.goldState, state.records.get(key) ?? []));
    }
  }
  return { votes: state.votes, gold: state.gold, owners: state.owners };
}
