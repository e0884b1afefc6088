// The gold a reader sees: a row's own gold_labels (what it arrived with) followed by the CURRENT app label of each
// annotator (their latest record for the row; a record with value null withdraws it: that is what undo appends),
// with gold_reward and gold_kind derived exactly as attach_labels derives them (shared/stats/labels.ts).
import { stampLabels, type GoldLabelRecord } from '../../shared/stats/labels';
import { goldStateOf, type GoldState } from './columns';
import type { LabelRecord } from './labels';

type Obj = Record<string, unknown>;

/**
 * Each annotator's current label on one row, from its records in append order: the latest record wins, a
 * withdrawal (null) leaves that annotator without a label. In the order the annotators' current records were
 * appended, so gold_labels reads as a history of the votes that stand.
 */
export function currentLabels(labels: readonly LabelRecord[]): LabelRecord[] {
  const latest = new Map<string, LabelRecord>();
  for (const label of labels) {
    latest.delete(label.annotator);
    latest.set(label.annotator, label);
  }
  return [...latest.values()].filter((label) => label.value !== null);
}

/** A stored label as attach_labels appends it to gold_labels; a withdrawal (null value) has none. */
export function goldLabelRecord(label: LabelRecord): GoldLabelRecord | null {
  if (label.value === null) return null;
  const record: GoldLabelRecord = { label: label.value, annotator: label.annotator, kind: label.kind, ts: label.ts };
  if (label.note) record.note = label.note;
  return record;
}

/** The current app labels of a row as gold_labels records (what export writes after the row's own). */
export function currentGoldRecords(labels: readonly LabelRecord[] | undefined): GoldLabelRecord[] {
  if (!labels || labels.length === 0) return [];
  return currentLabels(labels).map((label) => goldLabelRecord(label) as GoldLabelRecord);
}

/** The row with its current app labels stamped on (in place), or as it is when none stands. */
export function withGold(row: Obj, labels: readonly LabelRecord[] | undefined): Obj {
  return stampLabels(row, currentGoldRecords(labels));
}

/** The gold state of a stored row's JSON once its app labels are applied. */
export function goldStateWith(json: string, labels: readonly LabelRecord[]): GoldState {
  return goldStateOf(withGold(JSON.parse(json) as Obj, labels));
}

/**
 * The same from what the row keeps of it: its own gold_labels (JSON text, null when it has none) and the gold state
 * it arrived with. With no current app label the row keeps that state; with some, only gold_labels and the labels
 * decide (deriveGold), so the rest of the row need not be parsed.
 */
export function goldStateFromOwn(ownLabels: string | null, arrived: GoldState, labels: readonly LabelRecord[]): GoldState {
  const records = currentGoldRecords(labels);
  if (records.length === 0) return arrived;
  return goldStateOf(stampLabels(ownLabels === null ? {} : { gold_labels: JSON.parse(ownLabels) as unknown }, records));
}
