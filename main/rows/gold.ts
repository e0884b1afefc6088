// The gold a reader sees: a row's own gold_labels (what it arrived with) followed by the labels appended in the
// app, with gold_reward and gold_kind derived exactly as attach_labels derives them (shared/stats/labels.ts).
import { stampLabels, type GoldLabelRecord } from '../../shared/stats/labels';
import { goldStateOf, type GoldState } from './columns';
import type { LabelRecord } from './labels';

type Obj = Record<string, unknown>;

/** A stored label as attach_labels appends it to gold_labels; a skip (null value) is no vote and is left out. */
export function goldLabelRecord(label: LabelRecord): GoldLabelRecord | null {
  if (label.value === null) return null;
  const record: GoldLabelRecord = { label: label.value, annotator: label.annotator, kind: label.kind, ts: label.ts };
  if (label.note) record.note = label.note;
  return record;
}

/** The row with its app labels stamped on (in place), or as it is when it has none. */
export function withGold(row: Obj, labels: readonly LabelRecord[] | undefined): Obj {
  if (!labels || labels.length === 0) return row;
  const records = labels.map(goldLabelRecord).filter((record): record is GoldLabelRecord => record !== null);
  return stampLabels(row, records);
}

/** The gold state of a stored row's JSON once its app labels are applied. */
export function goldStateWith(json: string, labels: readonly LabelRecord[]): GoldState {
  return goldStateOf(withGold(JSON.parse(json) as Obj, labels));
}
