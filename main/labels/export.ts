// labels.export: the current labels (each annotator's latest on each row, withdrawals left out) as JSONL in the
// SDK's label format, {key, label, annotator, kind, ts, note?}, in the order they were appended. Feeding the file to
// attach_labels over the dataset's own rows gives back the gold the app shows.
import fs from 'node:fs';
import type { Db } from '../db/connection';
import { currentLabels, labelsByRowKey, type LabelRecord } from '../rows/index';

export function currentLabelRecords(db: Db, datasetId: string, annotator?: string): LabelRecord[] {
  const standing: LabelRecord[] = [];
  for (const list of labelsByRowKey(db, datasetId).values()) standing.push(...currentLabels(list));
  return standing.filter((label) => annotator === undefined || label.annotator === annotator).sort((a, b) => a.label_id - b.label_id);
}

export function labelLine(label: LabelRecord): string {
  const out: Record<string, unknown> = { key: label.row_key, label: label.value, annotator: label.annotator, kind: label.kind, ts: label.ts };
  if (label.note) out.note = label.note;
  return JSON.stringify(out);
}

/** Writes atomically (a .partial file renamed into place); returns the labels written. */
export async function exportLabels(db: Db, datasetId: string, file: string, annotator?: string): Promise<number> {
  const labels = currentLabelRecords(db, datasetId, annotator);
  const temp = `${file}.partial`;
  await fs.promises.writeFile(temp, labels.map((label) => labelLine(label) + '\n').join(''), 'utf8');
  await fs.promises.rename(temp, file);
  return labels.length;
}
