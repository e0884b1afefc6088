// A seeded run end to end through the CLI bundle: first line, JSON summary, judged rows, same seed same rewards, bad files.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEngine, cli, duplicateSlots, runRows, supportTasks } from './sim-run-helpers';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wd-sim-run-'));
const db = path.join(dir, 'runs.sqlite');
const judge = path.join(dir, 'judge.mjs');

beforeAll(async () => {
  await buildEngine();
  fs.writeFileSync(
    judge,
    `export const name = 'reference_in_reply';
export default (row) => {
  const reference = String(row.privileged?.reference ?? '').toLowerCase();
  return { reward: reference !== '' && String(row.final_text).toLowerCase().includes(reference) ? 1 : 0 };
};
`,
  );
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function seededRun(seed: number) {
  const result = await cli(['run', '--tasks', supportTasks, '--agent', 'seeded', '--k', '4', '--seed', String(seed), '--judge', judge, '--db', db, '--json']);
  expect(result.code).toBe(0);
  // --json: stdout is exactly one JSON document; the `run ID` line goes to stderr.
  const summary = JSON.parse(result.stdout) as { run_id: string; rows: number; rollouts_lost: number; pass_at_1: number | null };
  expect(result.stderr).toBe(`run ${summary.run_id}\n`);
  expect(summary.run_id).toMatch(/^run-[0-9a-f]+$/);
  return summary;
}

describe('while-desk run --agent seeded', () => {
  it('prints `run ID` first on stdout without --json', async () => {
    const result = await cli(['run', '--tasks', supportTasks, '--agent', 'seeded', '--k', '1', '--db', db]);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toMatch(/^run run-[0-9a-f]+$/);
    expect(result.stdout).toMatch(/^done: 8\/8 rows/m);
  });

  it('writes tasks x k graded rows with a pass@1 between 0 and 1, the same for the same seed', async () => {
    const first = await seededRun(7);
    expect(first.rows).toBe(32);
    expect(typeof first.rollouts_lost).toBe('number');
    expect(first.pass_at_1).toBeGreaterThan(0);
    expect(first.pass_at_1).toBeLessThan(1);
    const rows = runRows(db, first.run_id);
    expect(rows.length).toBe(32);
    expect(duplicateSlots(db, first.run_id)).toBe(0);
    const rewards = rows.map((r) => r.row.reward);
    expect(new Set(rewards)).toEqual(new Set([0, 1]));
    expect(rows.every((r) => r.row.judge_name === 'reference_in_reply')).toBe(true);
    const faulted = rows.find((r) => r.scenario_id === 'weather-error' && (r.row.steps as unknown[]).length > 0)!;
    expect(faulted.row.faults).toEqual({ get_weather: { mode: 'error' } });

    const again = await seededRun(7);
    expect(again.pass_at_1).toBe(first.pass_at_1);
    expect(runRows(db, again.run_id).map((r) => r.row.reward)).toEqual(rewards);
    const other = await seededRun(8);
    expect(runRows(db, other.run_id).map((r) => r.row.final_text)).not.toEqual(rows.map((r) => r.row.final_text));

    const listed = await cli(['runs', '--db', db, '--json']);
    const runs = JSON.parse(listed.stdout) as Array<{ id: string; status: string; rows: number; expected_rows: number; name: string }>;
    expect(runs.find((r) => r.id === first.run_id)).toMatchObject({ status: 'done', rows: 32, expected_rows: 32 });
    const table = await cli(['runs', '--db', db]);
    expect(table.stdout).toMatch(new RegExp(`${first.run_id}\\s+done\\s+32/32`));
  });

  it('prints null pass@1 without a judge, and stamps eval_run with --runs', async () => {
    const result = await cli(['run', '--tasks', supportTasks, '--agent', 'seeded', '--k', '2', '--runs', '2', '--db', db, '--json']);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as { run_id: string; rows: number; pass_at_1: number | null };
    expect(summary).toMatchObject({ rows: 32, pass_at_1: null, judge_status_counts: {} });
    const rows = runRows(db, summary.run_id);
    expect(rows.map((r) => (r.row.lineage as Record<string, unknown>).eval_run).filter((e) => e === 1).length).toBe(16);
    expect(duplicateSlots(db, summary.run_id)).toBe(0);
  });

  it('refuses a bad task file with its line numbers before anything runs', async () => {
    const fresh = path.join(dir, 'fresh.sqlite');
    const bad = path.join(dir, 'bad.jsonl');
    fs.writeFileSync(bad, ['{"scenario_id":"a","prompt":"fine"}', '{not json', '{"scenario_id":"b"}', '{"scenario_id":"a","prompt":"again"}'].join('\n'));
    const result = await cli(['run', '--tasks', bad, '--agent', 'seeded', '--k', '2', '--db', fresh]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/3 bad lines/);
    expect(result.stderr).toMatch(/line 2: not valid JSON/);
    expect(result.stderr).toMatch(/line 3: prompt: prompt is required/);
    expect(result.stderr).toMatch(/line 4: scenario_id "a" is already used on line 1/);
    // The refused run leaves no database file behind that it alone would have created.
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('fresh.sqlite'))).toEqual([]);
  });

  it('explains a bad agent spec and a missing flag', async () => {
    const spec = await cli(['run', '--tasks', supportTasks, '--agent', 'gpt-4', '--db', db]);
    expect(spec.code).toBe(1);
    expect(spec.stderr).toMatch(/unknown agent spec "gpt-4": use seeded, openai:MODEL@BASE_URL or llama:PATH.gguf/);
    const missing = await cli(['run', '--agent', 'seeded', '--db', db]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--tasks FILE is required/);
  });
});
