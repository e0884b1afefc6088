// Queries on the runs table: create a run with its dataset, commit one rollout's row, read progress.
import { storedRunConfig, type RolloutsLost, type RunConfig } from '../../../shared/api/runs';
import { agentLabel, judgeLabel } from '../../../shared/schema/run-settings';
import type { Task } from '../../../shared/schema/task';
import type { Statement } from 'better-sqlite3';
import type { Db } from '../connection';
import { noteListChanged, noteRowsChanged } from '../changes';
import { insertDataset } from './datasets';

export interface RunRecord {
  id: string;
  name: string;
  /** The stored status; 'running' with a dead pid is shown as 'interrupted' (main/sim/run-status.ts). */
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
    const id = insertDataset(db, { kind: 'run', name: run.name, status: 'running', source: run.source, meta: { agent: agentLabel(run.config.agent), judge: run.config.judge ? judgeLabel(run.config.judge) : null } });
    db.prepare(
      `INSERT INTO runs (id, config_json, status, expected_rows, pid, created_at, updated_at) VALUES (?, ?, 'running', ?, ?, ?, ?)`,
    ).run(id, JSON.stringify(run.config), run.expectedRows, process.pid, now(), now());
    db.prepare('INSERT INTO run_tasks (run_id, tasks_json) VALUES (?, ?)').run(id, JSON.stringify(run.tasks));
    return id;
  })();
}

interface RunDbRow {
  id: string;
  name: string;
  config_json: string;
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
    .prepare(`SELECT r.*, COALESCE(l.lost_json, r.lost_json) AS lost_json, d.name FROM runs r JOIN datasets d ON d.id = r.id LEFT JOIN run_lost l ON l.run_id = r.id WHERE r.id = ?`)
    .get(id) as RunDbRow | undefined;
  if (!row) return undefined;
  let tasks: Task[] | undefined;
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    config: readConfig(row.config_json, row.id),
    // Read when first asked for: a run's page and its summary never need its task set (thousands of tasks on a big run).
    get tasks() {
      if (tasks) return tasks;
      const json = db.prepare('SELECT tasks_json FROM run_tasks WHERE run_id = ?').pluck().get(row.id) as string | undefined;
      if (json === undefined) throw new Error(`run ${row.id}: its task set is not in the database (was the run deleted?)`);
      return (tasks = JSON.parse(json) as Task[]);
    },
    expectedRows: row.expected_rows,
    lost: JSON.parse(row.lost_json) as RolloutsLost,
    error: row.error,
    pid: row.pid,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  };
}

/** The stored config, read as settings objects whichever build wrote it (shared/api/runs.ts storedRunConfig). */
function readConfig(json: string, id: string): RunConfig {
  try {
    return storedRunConfig.parse(JSON.parse(json));
  } catch (error) {
    throw new Error(`run ${id}: its stored settings cannot be read (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
  }
}

/** What a runs list needs of each run; the status shown is derived from status and pid (main/sim/run-status.ts). */
export interface RunListEntry {
  id: string;
  name: string;
  status: RunRecord['status'];
  pid: number | null;
  rows: number;
  expectedRows: number;
  config: RunConfig;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

export function listRuns(db: Db): RunListEntry[] {
  const rows = db
    .prepare(
      `SELECT r.id, d.name, r.status, r.expected_rows, r.config_json, r.error, r.pid, r.created_at, r.finished_at,
              d.row_count AS rows
       FROM runs r JOIN datasets d ON d.id = r.id ORDER BY r.created_at DESC, r.id`,
    )
    .all() as Array<RunDbRow & { rows: number }>;
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    status: row.status,
    pid: row.pid,
    rows: row.rows,
    expectedRows: row.expected_rows,
    config: readConfig(row.config_json, row.id),
    error: row.error,
    createdAt: row.created_at,
    finishedAt: row.finished_at,
  }));
}

/** Stored status and pid of every run, for lists that show runs among other datasets. */
export function runStates(db: Db): Map<string, { status: RunRecord['status']; pid: number | null }> {
  const rows = db.prepare('SELECT id, status, pid FROM runs').all() as Array<{ id: string; status: RunRecord['status']; pid: number | null }>;
  return new Map(rows.map((row) => [row.id, { status: row.status, pid: row.pid }]));
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
    db.prepare(`UPDATE runs SET status = ?, error = ?, updated_at = ?, finished_at = ? WHERE id = ?`).run(status, error, now(), now(), id);
    setRunLost(db, id, lost);
    db.prepare(`UPDATE datasets SET status = ?, version = version + 1 WHERE id = ?`).run(status === 'done' ? 'ready' : status, id);
  })();
  noteRowsChanged(db, id);
  noteListChanged(db, id);
}

const upsertLost = new WeakMap<Db, Statement>();

/** The run's loss counts as they stand (slot-committer.ts writes them with the rows they account for; 0007-run-lost.ts says why apart). */
export function setRunLost(db: Db, id: string, lost: RolloutsLost): void {
  let statement = upsertLost.get(db);
  if (!statement) {
    statement = db.prepare('INSERT INTO run_lost (run_id, lost_json) VALUES (?, ?) ON CONFLICT (run_id) DO UPDATE SET lost_json = excluded.lost_json');
    upsertLost.set(db, statement);
  }
  statement.run(id, JSON.stringify(lost));
}
