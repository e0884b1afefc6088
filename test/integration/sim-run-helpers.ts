// Helpers for the simulation integration tests: build the engine once, run the CLI bundle or a run through the API,
// read a run's rows.
import { spawn } from 'node:child_process';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { MethodInput } from '../../shared/api/index';
import type { Engine } from '../../main/engine/engine';

export const root = path.resolve(__dirname, '../..');
export const bin = path.join(root, 'bin', 'while-desk.mjs');
export const supportTasks = path.join(root, 'test', 'fixtures', 'tasks', 'support.jsonl');

export { buildEngine } from '../helpers/build-engine';

/** Starts a run through the engine's API and waits for its last progress event: its id and the status it ended with. */
export async function runToEnd(engine: Engine, input: MethodInput<'runs.start'>): Promise<{ runId: string; status: string }> {
  const finished = new Promise<string>((resolve) => {
    const off = engine.on('run.progress', (progress) => {
      if (progress.status !== 'running') {
        off();
        resolve(progress.status);
      }
    });
  });
  const started = await engine.call('runs.start', input);
  return { runId: started.run_id, status: await finished };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function cli(args: string[], timeoutMs = 60_000, cwd = root): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`while-desk ${args.join(' ')} did not finish in ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export type Row = Record<string, unknown>;

export function runRows(dbPath: string, runId: string): Array<{ ordinal: number; scenario_id: string; rollout_index: number; eval_run: number | null; row: Row }> {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (
      db.prepare('SELECT ordinal, scenario_id, rollout_index, eval_run, row_json FROM rows WHERE dataset_id = ? ORDER BY ordinal').all(runId) as Array<{
        ordinal: number;
        scenario_id: string;
        rollout_index: number;
        eval_run: number | null;
        row_json: string;
      }>
    ).map(({ row_json, ...rest }) => ({ ...rest, row: JSON.parse(row_json) as Row }));
  } finally {
    db.close();
  }
}

export function duplicateSlots(dbPath: string, runId: string): number {
  const db = new Database(dbPath, { readonly: true });
  try {
    const row = db
      .prepare(
        `SELECT COUNT(*) AS n FROM (SELECT scenario_id, rollout_index, IFNULL(eval_run, -1) FROM rows WHERE dataset_id = ? GROUP BY 1, 2, 3 HAVING COUNT(*) > 1)`,
      )
      .get(runId) as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}
