// Queries on the runs table: create a run with its dataset, commit one rollout's row, read progress.
import type { RolloutsLost, RunConfig, RunStatus, RunSummary } from '../../../shared/api/runs';
import type { Task } from '../../../shared/schema/task';
import type { Db } from '../connection';
import { noteListChanged, noteRowsChanged } from '../changes';
import { insertDataset } from './datasets';
import { processAlive } from '../../engine/process-alive';

export interface RunRecord {
  id: string;
  name: string;
  /** The stored status; 'running' with a dead pid is shown as 'interrupted' (see effectiveStatus). */
  status: 'running' | 'done' | 'cancelled' | 'failed';
  config: RunConfig;
  tasks: Task[];
  expectedRows: number;
  lost: RolloutsLost;
  error: string | null;
  pid: number | null;
  createdAt: string;
  finishedAt: string | null;
}

export const emptyLost = (): RolloutsLost => ({ lost: 0, lost_by: {}, rerolled: 0, rerolled_by: {} });

const now = () => new Date().toISOString();

export function insertRun(db: Db, run: { name: string; config: RunConfig; tasks: Task[]; expectedRows: number; source: string | null }): string {
  return db.transaction(() => {
    const id = insertDataset(db, { kind: 'run', name: run.name, status: 'running', source: run.source, meta: { agent: run.config.agent, judge: run.config.judge } });
    db.prepare(
      `INSERT INTO runs (id, config_json, tasks_json, status, expected_rows, pid, created_at, updated_at) VALUES (?, ?, ?, 'running', ?, ?, ?, ?)`,
    ).run(id, JSON.stringify(run.config), JSON.stringify(run.tasks), run.expectedRows, process.pid, now(), now());
    return id;
  })();
}

interface RunDbRow {
  id: string;
  name: string;
  config_json: string;
  tasks_json: string;
  status: RunRecord['status'];
  expected_rows: number;
  lost_json: string;
  error: string | null;
  pid: number | null;
  created_at: string;
  finished_at: string | null;
}

export function getRun(db: Db, id: string): RunRecord | undefined {
  const row = db
    .prepare(`SELECT r.*, d.name FROM runs r JOIN datasets d ON d.id = r.id WHERE r.id = ?`)
    .get(id) as RunDbRow | undefined;
  if (!row) return undefined;
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    config: JSON.parse(row.config_json) as RunConfig,
    tasks: JSON.parse(row.tasks_json) as Task[],
    expectedRows: row.expected_rows,
    lost: JSON.parse(row.lost_json) as RolloutsLost,
    error: row.error,
    pid: row.pid,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

/** 'running' in the database but neither going here nor in a live process: it was interrupted (crash, kill -9). */
export function effectiveStatus(stored: RunRecord['status'], pid: number | null, activeHere: boolean): RunStatus {
  if (stored !== 'running' || activeHere) return stored;
  if (pid !== null && pid !== process.pid && processAlive(pid)) return 'running';
  return 'interrupted';
}

export function listRuns(db: Db, isActive: (id: string) => boolean): RunSummary[] {
  const rows = db
    .prepare(
      `SELECT r.id, d.name, r.status, r.expected_rows, r.config_json, r.error, r.pid, r.created_at, r.finished_at,
              d.row_count AS rows
       FROM runs r JOIN datasets d ON d.id = r.id ORDER BY r.created_at DESC, r.id`,
    )
    .all() as Array<RunDbRow & { rows: number }>;
  return rows.map((row) => {
    const config = JSON.parse(row.config_json) as RunConfig;
    return {
      id: row.id,
      name: row.name,
      status: effectiveStatus(row.status, row.pid, isActive(row.id)),
      rows: row.rows,
      expected_rows: row.expected_rows,
      agent: config.agent,
      judge: config.judge,
      created_at: row.created_at,
      finished_at: row.finished_at,
      error: row.error,
    };
  });
}

/** Marks the run as going in this process (start or resume). */
export function claimRun(db: Db, id: string): void {
  db.prepare(`UPDATE runs SET status = 'running', pid = ?, error = NULL, finished_at = NULL, updated_at = ? WHERE id = ?`).run(process.pid, now(), id);
  db.prepare(`UPDATE datasets SET status = 'running', version = version + 1 WHERE id = ?`).run(id);
  noteRowsChanged(db, id);
  noteListChanged(db, id);
}

export function finishRun(db: Db, id: string, status: RunRecord['status'], error: string | null, lost: RolloutsLost): void {
  db.transaction(() => {
    db.prepare(`UPDATE runs SET status = ?, error = ?, lost_json = ?, updated_at = ?, finished_at = ? WHERE id = ?`).run(
      status,
      error,
      JSON.stringify(lost),
      now(),
      now(),
      id,
    );
    db.prepare(`UPDATE datasets SET status = ?, version = version + 1 WHERE id = ?`).run(status === 'done' ? 'ready' : status, id);
  })();
  noteRowsChanged(db, id);
  noteListChanged(db, id);
}

/** The run's loss counts as they stand (slot-committer.ts writes them with the rows they account for). */
export function setRunLost(db: Db, id: string, lost: RolloutsLost): void {
  db.prepare('UPDATE runs SET lost_json = ? WHERE id = ?').run(JSON.stringify(lost), id);
}

/** pass@1: the mean over tasks of each task's pass rate (reward >= 0.5) among graded rows; null when none graded. */
export function passAtOne(db: Db, id: string): { passAt1: number | null; graded: number } {
  const rows = db
    .prepare(
      `SELECT scenario_id AS task, COUNT(*) AS n, SUM(CASE WHEN reward >= 0.5 THEN 1 ELSE 0 END) AS passed
       FROM rows WHERE dataset_id = ? AND reward IS NOT NULL GROUP BY scenario_id`,
    )
    .all(id) as Array<{ task: string | null; n: number; passed: number }>;
  if (rows.length === 0) return { passAt1: null, graded: 0 };
  const rates = rows.map((row) => row.passed / row.n);
  return { passAt1: rates.reduce((a, b) => a + b, 0) / rates.length, graded: rows.reduce((a, row) => a + row.n, 0) };
}
