// Labels: appended records (row key, annotator, kind, value, note, time), never updated or deleted. The gold of
// a row is derived from them on every read (gold.ts), as attach_labels derives it.
import type { Db } from '../db/connection';
import { bumpVersion } from '../db/changes';

export type LabelKind = 'human' | 'program' | 'model';

export interface NewLabel {
  datasetId: string;
  rowKey: string;
  annotator: string;
  kind: LabelKind;
  /** 1 pass, 0 fail, null: withdraws the annotator's earlier label on the row (undo appends one). */
  value: 0 | 1 | null;
  note?: string | null;
  /** Defaults to now. */
  createdAt?: Date;
}

export interface LabelRecord {
  label_id: number;
  dataset_id: string;
  row_key: string;
  annotator: string;
  kind: LabelKind;
  value: 0 | 1 | null;
  note: string | null;
  /** ISO time, and the same in epoch seconds (the `ts` attach_labels stamps). */
  created_at: string;
  ts: number;
}

interface LabelDbRow {
  id: number;
  dataset_id: string;
  row_key: string;
  annotator: string;
  kind: LabelKind;
  value: string | number | null;
  note: string | null;
  created_at: string;
}

function toRecord(row: LabelDbRow): LabelRecord {
  return {
    label_id: row.id,
    dataset_id: row.dataset_id,
    row_key: row.row_key,
    annotator: row.annotator,
    kind: row.kind,
    value: row.value === null ? null : (Number(row.value) as 0 | 1),
    note: row.note,
    created_at: row.created_at,
    ts: Date.parse(row.created_at) / 1000,
  };
}

/** How many of the dataset's rows carry this row key (a label must name exactly one). */
export function rowsWithKey(db: Db, datasetId: string, rowKey: string): number[] {
  // Sorted here, not by SQL: an ORDER BY ordinal makes SQLite walk the ordinal index over the whole dataset
  // instead of looking the key up (60 ms a label at 100k rows).
  const owners = db.prepare('SELECT ordinal FROM rows WHERE dataset_id = ? AND row_key = ? LIMIT 3').pluck().all(datasetId, rowKey) as number[];
  return owners.sort((a, b) => a - b);
}

/** Appends one label in the caller's transaction (or its own) and bumps the dataset's version. */
export function appendLabel(db: Db, label: NewLabel): { labelId: number; version: number } {
  return db.transaction(() => {
    const createdAt = (label.createdAt ?? new Date()).toISOString();
    const { lastInsertRowid } = db
      .prepare('INSERT INTO labels (dataset_id, row_key, annotator, kind, value, note, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(label.datasetId, label.rowKey, label.annotator, label.kind, label.value, label.note ?? null, createdAt);
    bumpVersion(db, label.datasetId);
    const version = db.prepare('SELECT version FROM datasets WHERE id = ?').pluck().get(label.datasetId) as number;
    return { labelId: Number(lastInsertRowid), version };
  })();
}

/** Appends many labels (an import) in one transaction with one version bump; returns the new version. */
export function appendLabels(db: Db, datasetId: string, labels: readonly Omit<NewLabel, 'datasetId'>[]): number {
  return db.transaction(() => {
    const insert = db.prepare('INSERT INTO labels (dataset_id, row_key, annotator, kind, value, note, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    for (const label of labels) {
      insert.run(datasetId, label.rowKey, label.annotator, label.kind, label.value, label.note ?? null, (label.createdAt ?? new Date()).toISOString());
    }
    bumpVersion(db, datasetId);
    return db.prepare('SELECT version FROM datasets WHERE id = ?').pluck().get(datasetId) as number;
  })();
}

/** Every row's row_key in stored order (an import maps attach_labels' matches back to the keys labels name). */
export function rowKeysInOrder(db: Db, datasetId: string): Array<string | null> {
  return db.prepare('SELECT row_key FROM rows WHERE dataset_id = ? ORDER BY ordinal').pluck().all(datasetId) as Array<string | null>;
}

export interface LabelFilter {
  annotator?: string;
  rowKey?: string;
}

/** A dataset's labels in the order they were appended, optionally of one annotator and/or one row. */
export function listLabels(db: Db, datasetId: string, filter: LabelFilter = {}): LabelRecord[] {
  const where = ['dataset_id = ?'];
  const params: unknown[] = [datasetId];
  if (filter.annotator !== undefined) (where.push('annotator = ?'), params.push(filter.annotator));
  if (filter.rowKey !== undefined) (where.push('row_key = ?'), params.push(filter.rowKey));
  return (db.prepare(`SELECT * FROM labels WHERE ${where.join(' AND ')} ORDER BY id`).all(...params) as LabelDbRow[]).map(toRecord);
}

export function hasLabels(db: Db, datasetId: string): boolean {
  return db.prepare('SELECT 1 FROM labels WHERE dataset_id = ? LIMIT 1').get(datasetId) !== undefined;
}

/** The dataset's labels grouped by row key, in append order (empty when it has none). */
export function labelsByRowKey(db: Db, datasetId: string, rowKeys?: readonly string[]): Map<string, LabelRecord[]> {
  const byKey = new Map<string, LabelRecord[]>();
  if (!hasLabels(db, datasetId)) return byKey;
  const rows = rowKeys
    ? (db.prepare('SELECT * FROM labels WHERE dataset_id = ? AND row_key IN (SELECT value FROM json_each(?)) ORDER BY id').all(datasetId, JSON.stringify(rowKeys)) as LabelDbRow[])
    : (db.prepare('SELECT * FROM labels WHERE dataset_id = ? ORDER BY id').all(datasetId) as LabelDbRow[]);
  for (const row of rows) {
    const record = toRecord(row);
    const list = byKey.get(record.row_key);
    if (list) list.push(record);
    else byKey.set(record.row_key, [record]);
  }
  return byKey;
}

/** The dataset's labels appended after label id `after`, in append order, and how many it has in all (and its last id). */
export function labelsSince(db: Db, datasetId: string, after: number): { labels: LabelRecord[]; total: number; lastId: number } {
  const [total, lastId] = db.prepare('SELECT count(*), coalesce(max(id), 0) FROM labels WHERE dataset_id = ?').raw().get(datasetId) as [number, number];
  const rows = db.prepare('SELECT * FROM labels WHERE dataset_id = ? AND id > ? ORDER BY id').all(datasetId, after) as LabelDbRow[];
  return { labels: rows.map(toRecord), total, lastId };
}
