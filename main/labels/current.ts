// The labels that stand: per row, each annotator's current label (their latest record; a withdrawal removes it),
// and the gold each labeled row now has (its own gold_labels plus those votes, as attach_labels derives it).
import type { Db } from '../db/connection';
import { currentLabels, goldStateWith, labelsByRowKey, rowJsonByOrdinal, rowsByKey, type GoldState, type LabelRecord } from '../rows/index';

export interface LabelState {
  /** row key -> annotator -> current value (0 or 1). */
  votes: Map<string, Map<string, 0 | 1>>;
  /** row key -> the gold the row has with its labels (only rows that have app labels). */
  gold: Map<string, GoldState>;
}

export function currentVotes(db: Db, datasetId: string): { votes: Map<string, Map<string, 0 | 1>>; records: Map<string, LabelRecord[]> } {
  const records = labelsByRowKey(db, datasetId);
  const votes = new Map<string, Map<string, 0 | 1>>();
  for (const [rowKey, list] of records) {
    const standing = currentLabels(list);
    if (standing.length) votes.set(rowKey, new Map(standing.map((label) => [label.annotator, label.value as 0 | 1])));
  }
  return { votes, records };
}

/** Each labeled row's ordinal and the gold it arrived with, by key (rows that carry no labeled key are absent). */
export type LabeledOwners = Map<string, { ordinal: number; goldState: GoldState }>;

/** Current votes and the gold of every row that has app labels, and those rows (looked up by their keys). */
export function labelState(db: Db, datasetId: string): LabelState & { owners: LabeledOwners } {
  const { votes, records } = currentVotes(db, datasetId);
  const owners = rowsByKey(db, datasetId, [...records.keys()]);
  const json = rowJsonByOrdinal(db, datasetId, [...owners.values()].map((owner) => owner.ordinal));
  const gold = new Map<string, GoldState>();
  for (const [key, { ordinal }] of owners) {
    const text = json.get(ordinal);
    if (text !== undefined) gold.set(key, goldStateWith(text, records.get(key) ?? []));
  }
  return { votes, gold, owners };
}
