// Queries on the datasets table, in one place.
import { randomBytes } from 'node:crypto';
import type { DatasetSummary } from '../../../shared/api/datasets';
import type { Db } from '../connection';
import { bumpVersion, noteListChanged } from '../changes';
import { processAlive } from '../../engine/process-alive';

export type DatasetKind = 'import' | 'run' | 'graded';

export function newId(prefix: string): string {
  return `${prefix}-${randomBytes(5).toString('hex')}`;
}

export interface NewDataset {
  id?: string;
  name: string;
  kind: DatasetKind;
  status?: string;
  parentId?: string | null;
  source?: string | null;
  meta?: Record<string, unknown>;
}

export function insertDataset(db: Db, dataset: NewDataset): string {
  const id = dataset.id ?? newId(dataset.kind === 'run' ? 'run' : 'ds');
  db.prepare(
    `INSERT INTO datasets (id, name, kind, status, parent_id, source, created_at, meta_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    id,
    dataset.name,
    dataset.kind,
    dataset.status ?? 'ready',
    dataset.parentId ?? null,
    dataset.source ?? null,
    new Date().toISOString(),
    JSON.stringify(dataset.meta ?? {}),
  );
  noteListChanged(db, id);
  return id;
}

export function setDatasetStatus(db: Db, id: string, status: string): void {
  db.prepare('UPDATE datasets SET status = ? WHERE id = ?').run(status, id);
  bumpVersion(db, id);
  noteListChanged(db, id);
}

export function getDatasetMeta(db: Db, id: string): Record<string, unknown> {
  const row = db.prepare('SELECT meta_json FROM datasets WHERE id = ?').get(id) as { meta_json: string } | undefined;
  return row ? (JSON.parse(row.meta_json) as Record<string, unknown>) : {};
}

export function setDatasetMeta(db: Db, id: string, meta: Record<string, unknown>): void {
  db.prepare('UPDATE datasets SET meta_json = ? WHERE id = ?').run(JSON.stringify(meta), id);
  bumpVersion(db, id);
}

const summarySql = `
  SELECT d.id, d.name, d.kind, d.status, d.parent_id, d.source, d.created_at, d.row_count AS rows, d.version
  FROM datasets d`;

export function listDatasets(db: Db): DatasetSummary[] {
  return db.prepare(`${summarySql} ORDER BY d.created_at DESC, d.id`).all() as DatasetSummary[];
}

export function findDataset(db: Db, id: string): DatasetSummary | undefined {
  return db.prepare(`${summarySql} WHERE d.id = ?`).get(id) as DatasetSummary | undefined;
}

/** The datasets made from this one (graded copies: parent_id = id), directly. */
export function childDatasets(db: Db, id: string): Array<{ id: string; name: string }> {
  return db.prepare('SELECT id, name FROM datasets WHERE parent_id = ? ORDER BY created_at, id').all(id) as Array<{ id: string; name: string }>;
}

/** Whether the process recorded under `key` in a dataset's meta is another one, still alive. */
export function ownerAlive(metaJson: string, key: string): boolean {
  const pid = Number((JSON.parse(metaJson) as Record<string, unknown>)[key]);
  return Boolean(pid) && pid !== process.pid && processAlive(pid);
}

/**
 * A grade whose process died (crash, kill -9) would say 'grading' forever: it becomes 'failed', its graded rows
 * kept, with a note of how far it got. Returns how many were marked.
 */
export function recoverInterruptedGrades(db: Db): number {
  const stale = db.prepare(`SELECT id, meta_json FROM datasets WHERE status = 'grading'`).all() as Array<{ id: string; meta_json: string }>;
  let marked = 0;
  for (const dataset of stale) {
    if (ownerAlive(dataset.meta_json, 'grade_pid')) continue;
    const rows = db.prepare('SELECT row_count FROM datasets WHERE id = ?').pluck().get(dataset.id) as number;
    const meta = JSON.parse(dataset.meta_json) as Record<string, unknown>;
    setDatasetMeta(db, dataset.id, { ...meta, error: `interrupted: the process grading it stopped after ${rows} rows; grade the source again` });
    setDatasetStatus(db, dataset.id, 'failed');
    marked++;
  }
  return marked;
}
