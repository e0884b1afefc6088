// labels.import: a label file onto a dataset's rows exactly as attach_labels(rows, labels, annotator, kind) takes
// it: the report is attach_labels' own, computed on the dataset's rows as an export would write them (so it equals
// the SDK's on the same file), and each matched label is appended as a record for the row it named. Everything
// that refuses (a bad kind, an ambiguous key, no label matching any row, a key the app cannot tell apart) refuses
// before anything is written.
import { ApiError } from '../../shared/api/define';
import { StatsValueError } from '../../shared/stats/errors';
import { attachLabels, type AttachLabelsReport } from '../../shared/stats/labels';
import type { Db } from '../db/connection';
import { appendLabels, readDatasetRows, rowKeysInOrder, type LabelKind, type NewLabel } from '../rows/index';

type Obj = Record<string, unknown>;

export function importLabels(db: Db, datasetId: string, labels: unknown, options: { annotator?: string; kind: string }): { report: AttachLabelsReport; stored: number; version: number } {
  const rows = readDatasetRows(db, datasetId);
  const before = rows.map((row) => (Array.isArray(row.gold_labels) ? row.gold_labels.length : 0));
  let report: AttachLabelsReport;
  try {
    report = attachLabels(rows, labels, { annotator: options.annotator ?? null, kind: options.kind }).report;
  } catch (error) {
    if (error instanceof StatsValueError) throw new ApiError('bad_input', `${error.message} Nothing was imported.`);
    throw error;
  }
  const keys = rowKeysInOrder(db, datasetId);
  const shared = new Map<string, number>();
  for (const key of keys) if (key !== null) shared.set(key, (shared.get(key) ?? 0) + 1);
  const now = new Date();
  const records: Array<Omit<NewLabel, 'datasetId'>> = [];
  const clashes: string[] = [];
  rows.forEach((row, i) => {
    const added = Array.isArray(row.gold_labels) ? (row.gold_labels as Obj[]).slice(before[i]) : [];
    if (added.length === 0) return;
    const key = keys[i];
    if (key === null || (shared.get(key) ?? 0) > 1) {
      clashes.push(`row ${i} (${key ?? 'no key'})`);
      return;
    }
    for (const record of added) {
      records.push({
        rowKey: key,
        annotator: String(record.annotator),
        kind: record.kind as LabelKind,
        value: record.label as 0 | 1,
        note: typeof record.note === 'string' ? record.note : null,
        createdAt: typeof record.ts === 'number' && Number.isFinite(record.ts) ? new Date(record.ts * 1000) : now,
      });
    }
  });
  if (clashes.length) {
    throw new ApiError(
      'conflict',
      `labels name ${clashes.slice(0, 3).join(', ')}${clashes.length > 3 ? ` and ${clashes.length - 3} more` : ''}, whose row_key another row of dataset ${datasetId} shares, so a stored label could not say which row it belongs to; nothing was imported. Give every row its own rollout_id before labeling`,
    );
  }
  const version = appendLabels(db, datasetId, records);
  return { report, stored: records.length, version };
}
