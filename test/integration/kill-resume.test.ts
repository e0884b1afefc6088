// Crash safety: kill -9 a run mid-way (twice), resume, and get exactly tasks x k rows with no duplicate slot.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bin, buildEngine, cli, duplicateSlots, root, runRows } from './sim-run-helpers';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wd-kill-'));
const db = path.join(dir, 'kill.sqlite');
const tasks = path.join(dir, 'tasks.jsonl');
const TASKS = 40;
const K = 300;

beforeAll(async () => {
  await buildEngine();
  const base = fs.readFileSync(path.join(root, 'test', 'fixtures', 'tasks', 'support.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  const lines = Array.from({ length: TASKS }, (_, i) => JSON.stringify({ ...base[i % base.length], scenario_id: `${String(base[i % base.length].scenario_id)}-${i}` }));
  fs.writeFileSync(tasks, lines.join('\n') + '\n');
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function countRows(): number {
  if (!fs.existsSync(db)) return 0;
  const reader = new Database(db, { readonly: true, fileMustExist: true });
  try {
    return (reader.prepare(`SELECT COUNT(*) AS n FROM rows`).get() as { n: number }).n;
  } catch {
    return 0;
  } finally {
    reader.close();
  }
}

/** Starts `while-desk ARGS`, waits until the database holds more than `atRows` rows, then kill -9. */
function killWhenRows(args: string[], atRows: number): Promise<{ stdout: string; killed: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let exited = false;
    child.stdout.on('data', (chunk) => (stdout += chunk));
    const deadline = Date.now() + 60_000;
    const poll = setInterval(() => {
      if (exited) return;
      if (countRows() > atRows) {
        clearInterval(poll);
        child.kill('SIGKILL');
      } else if (Date.now() > deadline) {
        clearInterval(poll);
        child.kill('SIGKILL');
        reject(new Error('the run never reached the kill point'));
      }
    }, 20);
    child.on('exit', (code, signal) => {
      exited = true;
      clearInterval(poll);
      resolve({ stdout, killed: signal === 'SIGKILL' && code === null });
    });
  });
}

describe('kill -9 and resume', () => {
  it('finishes with exactly tasks x k rows and no duplicate (scenario_id, rollout_index, eval_run)', async () => {
    const expected = TASKS * K;
    const first = await killWhenRows(['run', '--tasks', tasks, '--agent', 'seeded', '--k', String(K), '--concurrency', '16', '--db', db], 300);
    expect(first.killed).toBe(true);
    const runId = first.stdout.split('\n')[0].replace(/^run /, '');
    expect(runId).toMatch(/^run-[0-9a-f]+$/);
    const afterKill = countRows();
    expect(afterKill).toBeGreaterThan(300);
    expect(afterKill).toBeLessThan(expected);

    // The task file goes away: resume must use the task set stored with the run.
    fs.renameSync(tasks, tasks + '.gone');
    const listed = JSON.parse((await cli(['runs', '--db', db, '--json'])).stdout) as Array<{ id: string; status: string; rows: number }>;
    expect(listed[0]).toMatchObject({ id: runId, status: 'interrupted' });
    // `datasets` shows the same status for the run as `runs` does.
    const datasets = JSON.parse((await cli(['datasets', '--db', db, '--json'])).stdout) as Array<{ id: string; status: string }>;
    expect(datasets.find((d) => d.id === runId)?.status).toBe('interrupted');

    const second = await killWhenRows(['resume', runId, '--db', db], afterKill + 500);
    if (second.killed) expect(countRows()).toBeLessThan(expected);
    expect(duplicateSlots(db, runId)).toBe(0);

    const final = await cli(['resume', runId, '--db', db, '--json'], 120_000);
    expect(final.stderr).toMatch(new RegExp(`^run ${runId}\nresuming: \\d+ of ${expected} rollouts to go\n$`));
    expect(final.code).toBe(0);
    const summary = JSON.parse(final.stdout) as { run_id: string; rows: number; status: string };
    expect(summary).toMatchObject({ run_id: runId, rows: expected, status: 'done' });
    const rows = runRows(db, runId);
    expect(rows.length).toBe(expected);
    expect(duplicateSlots(db, runId)).toBe(0);
    expect(new Set(rows.map((r) => `${r.scenario_id}#${r.rollout_index}`)).size).toBe(expected);
    const done = JSON.parse((await cli(['runs', '--db', db, '--json'])).stdout) as Array<{ id: string; status: string; rows: number; expected_rows: number }>;
    expect(done[0]).toMatchObject({ id: runId, status: 'done', rows: expected, expected_rows: expected });
  }, 240_000);
});

describe('kill -9 while grading', () => {
  it('leaves a graded dataset marked failed, with how far it got, not "grading" forever', async () => {
    const source = path.join(dir, 'to-grade.jsonl');
    const rows = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ schema_version: '1', scenario_id: `g${i}`, prompt: `p${i}`, steps: [], final_text: `answer ${i}` }));
    fs.writeFileSync(source, rows.join('\n') + '\n');
    const graderDb = path.join(dir, 'grade.sqlite');
    const imported = await cli(['import', source, '--db', graderDb, '--json']);
    const sourceId = (JSON.parse(imported.stdout) as { dataset_id: string }).dataset_id;
    // A judge slow enough (2 ms a row) that the kill lands midway.
    const judge = path.join(dir, 'slow-judge.mjs');
    fs.writeFileSync(judge, 'export default async function slow_judge(row) { await new Promise((r) => setTimeout(r, 2)); return { reward: 1 }; }\n');

    const graderRows = () => {
      const reader = new Database(graderDb, { readonly: true });
      try {
        return (reader.prepare(`SELECT COUNT(*) AS n FROM rows WHERE dataset_id != ?`).get(sourceId) as { n: number }).n;
      } finally {
        reader.close();
      }
    };
    const killed = await new Promise<boolean>((resolve) => {
      const child = spawn(process.execPath, [bin, 'grade', sourceId, '--judge', judge, '--concurrency', '4', '--db', graderDb], { cwd: root, stdio: 'ignore' });
      const poll = setInterval(() => {
        if (graderRows() > 0) child.kill('SIGKILL');
      }, 20);
      child.on('exit', (code, signal) => {
        clearInterval(poll);
        resolve(signal === 'SIGKILL');
      });
    });
    expect(killed).toBe(true);
    const graded = graderRows();
    expect(graded).toBeGreaterThan(0);
    expect(graded).toBeLessThan(3000);

    const listed = JSON.parse((await cli(['datasets', '--db', graderDb, '--json'])).stdout) as Array<{ id: string; kind: string; status: string; rows: number }>;
    expect(listed.find((dataset) => dataset.kind === 'graded')).toMatchObject({ status: 'failed', rows: graded });
    const reader = new Database(graderDb, { readonly: true });
    const meta = JSON.parse((reader.prepare(`SELECT meta_json FROM datasets WHERE kind = 'graded'`).get() as { meta_json: string }).meta_json) as { error: string };
    reader.close();
    expect(meta.error).toBe(`interrupted: the process grading it stopped after ${graded} rows; grade the source again`);
  }, 120_000);
});
