// Queries on the sweeps and sweep_runs tables (migration 0006): a sweep, its config and report, its arms' runs.
import { sweepConfig, type SweepConfig } from '../../../shared/api/sweeps';
import type { Db } from '../connection';
import { newId } from './datasets';

export interface SweepRecord {
  id: string;
  name: string;
  config: SweepConfig;
  /** The frozen task set, as the JSONL text every arm is started from. */
  tasksText: string;
  /** Stored status; 'running' with a dead pid is shown as 'interrupted', with no pid (sweeps.cancel) as 'cancelled'. */
  status: 'running' | 'done' | 'failed';
  pid: number | null;
  error: string | null;
  report: unknown | null;
  createdAt: string;
  finishedAt: string | null;
}

interface SweepDbRow {
  id: string;
  name: string;
  config_json: string;
  tasks_text: string;
  status: SweepRecord['status'];
  pid: number | null;
  error: string | null;
  report_json: string | null;
  created_at: string;
  finished_at: string | null;
}

const now = () => new Date().toISOString();

function toRecord(row: SweepDbRow): SweepRecord {
  return {
    id: row.id,
    name: row.name,
    config: sweepConfig.parse(JSON.parse(row.config_json)),
    tasksText: row.tasks_text,
    status: row.status,
    pid: row.pid,
    error: row.error,
    report: row.report_json === null ? null : (JSON.parse(row.report_json) as unknown),
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

export function insertSweep(db: Db, sweep: { name: string; config: SweepConfig; tasksText: string }): string {
  const id = newId('sweep');
  db.prepare(
    `INSERT INTO sweeps (id, name, config_json, tasks_text, status, pid, created_at, updated_at) VALUES (?, ?, ?, ?, 'running', ?, ?, ?)`,
  ).run(id, sweep.name, JSON.stringify(sweep.config), sweep.tasksText, process.pid, now(), now());
  return id;
}

export function getSweep(db: Db, id: string): SweepRecord | undefined {
  const row = db.prepare('SELECT * FROM sweeps WHERE id = ?').get(id) as SweepDbRow | undefined;
  return row ? toRecord(row) : undefined;
}

export function listSweeps(db: Db): SweepRecord[] {
  return (db.prepare('SELECT * FROM sweeps ORDER BY created_at DESC, id').all() as SweepDbRow[]).map(toRecord);
}

/** Marks the sweep as going in this process (start or resume). */
export function claimSweep(db: Db, id: string): void {
  db.prepare(`UPDATE sweeps SET status = 'running', pid = ?, error = NULL, finished_at = NULL, updated_at = ? WHERE id = ?`).run(process.pid, now(), id);
}

/** Stopped by sweeps.cancel: still 'running' (resumable) but held by no process, which is how it reads cancelled. */
export function releaseSweep(db: Db, id: string): void {
  db.prepare(`UPDATE sweeps SET pid = NULL, updated_at = ? WHERE id = ?`).run(now(), id);
}

export function finishSweep(db: Db, id: string, outcome: { status: 'done' | 'failed'; error: string | null; report: unknown | null }): void {
  db.prepare(`UPDATE sweeps SET status = ?, error = ?, report_json = ?, updated_at = ?, finished_at = ? WHERE id = ?`).run(
    outcome.status,
    outcome.error,
    outcome.report === null ? null : JSON.stringify(outcome.report),
    now(),
    now(),
    id,
  );
}

export interface SweepRunLink {
  arm: number;
  rerun: number;
  runId: string;
}

/** Called inside the transaction that stores the run (runs-service startRun's onStored hook). */
export function linkSweepRun(db: Db, sweepId: string, link: SweepRunLink): void {
  db.prepare('INSERT INTO sweep_runs (sweep_id, arm, rerun, run_id) VALUES (?, ?, ?, ?)').run(sweepId, link.arm, link.rerun, link.runId);
}

export function sweepRuns(db: Db, sweepId: string): SweepRunLink[] {
  return (
    db.prepare('SELECT arm, rerun, run_id FROM sweep_runs WHERE sweep_id = ? ORDER BY rerun, arm').all(sweepId) as Array<{ arm: number; rerun: number; run_id: string }>
  ).map((r) => ({ arm: r.arm, rerun: r.rerun, runId: r.run_id }));
}

/** Rows committed so far per run of the sweep (datasets.row_count, which the rows module keeps). */
export function sweepRowCounts(db: Db, sweepId: string): Map<string, number> {
  const rows = db
    .prepare('SELECT s.run_id, d.row_count AS n FROM sweep_runs s JOIN datasets d ON d.id = s.run_id WHERE s.sweep_id = ?')
    .all(sweepId) as Array<{ run_id: string; n: number }>;
  return new Map(rows.map((r) => [r.run_id, r.n]));
}
