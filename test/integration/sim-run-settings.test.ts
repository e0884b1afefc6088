// Run settings as data, through the CLI bundle: one pass@1 from every surface, paths fixed when the run starts (resume
// from any folder), a judge refused before anything is written, a summary that says when no row was graded.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../main/engine/engine';
import { buildEngine, cli, supportTasks } from './sim-run-helpers';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wd-run-settings-'));
const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'wd-elsewhere-'));
const db = path.join(dir, 'runs.sqlite');

beforeAll(async () => {
  await buildEngine();
  fs.copyFileSync(supportTasks, path.join(dir, 'tasks.jsonl'));
  // Fractional rewards on two tasks, 0 and 1 on the rest: pass@1 by the SDK's rule differs from "reward >= 0.5".
  fs.writeFileSync(
    path.join(dir, 'fractional.mjs'),
    `export default (row) => row.scenario_id === 'order-status-1' ? 0.25 : row.scenario_id === 'order-status-2' ? 0.75 : (row.seeded.length === 0 ? 1 : 0);\n`,
  );
  fs.writeFileSync(path.join(dir, 'broken.mjs'), `export default () => { throw new Error('always broken'); };\n`);
  fs.writeFileSync(path.join(dir, 'syntax.mjs'), `export default (row => ;\n`);
}, 120_000);
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(elsewhere, { recursive: true, force: true });
});

type Summary = { run_id: string; status: string; rows: number; pass_at_1: number | null; graded_rows: number; judge_status_counts: Record<string, number>; grading_failed?: boolean };

describe('run settings end to end', () => {
  it('gives one pass@1 from run --json, runs.get and stats pass-at, with a judge returning 0.25 and 0.75', async () => {
    const result = await cli(['run', '--tasks', 'tasks.jsonl', '--agent', 'seeded', '--k', '4', '--judge', 'fractional.mjs', '--db', db, '--json'], 60_000, dir);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as Summary;
    expect(summary.pass_at_1).not.toBeNull();
    const stats = await cli(['stats', 'pass-at', summary.run_id, '--db', db, '--json']);
    expect(stats.code).toBe(0);
    expect((JSON.parse(stats.stdout) as { pass_at_1: number }).pass_at_1).toBe(summary.pass_at_1);
    const engine = createEngine({ dbPath: db });
    try {
      const run = await engine.call('runs.get', { id: summary.run_id });
      expect(run.pass_at_1).toBe(summary.pass_at_1);
      expect(run.judge_status_counts).toEqual({ ok: 32 });
      // Every path was made absolute when the run started.
      expect(run.config.tasks_path).toBe(path.join(dir, 'tasks.jsonl'));
      expect(run.config.judge).toMatchObject({ kind: 'module', path: path.join(dir, 'fractional.mjs'), timeout_s: 10 });
      expect(run.config.agent).toEqual({ kind: 'seeded', misbehave_rate: 0.3, seed: null });
    } finally {
      await engine.close();
    }

    // Resumed from another folder, the finished run stays done and nothing changes.
    const before = JSON.parse((await cli(['runs', '--db', db, '--json'])).stdout) as Array<{ id: string; status: string; finished_at: string }>;
    const resumed = await cli(['resume', summary.run_id, '--db', db], 60_000, elsewhere);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/already done \(32 of 32 rows\); nothing to resume/);
    const again = await cli(['resume', summary.run_id, '--db', db, '--json'], 60_000, elsewhere);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ run_id: summary.run_id, status: 'done', rows: 32, pass_at_1: summary.pass_at_1 });
    const after = JSON.parse((await cli(['runs', '--db', db, '--json'])).stdout) as typeof before;
    expect(after.find((r) => r.id === summary.run_id)).toEqual(before.find((r) => r.id === summary.run_id));
  });

  it('says so when no row could be graded, with counts by judge_status', async () => {
    const result = await cli(['run', '--tasks', supportTasks, '--agent', 'seeded', '--k', '1', '--judge', path.join(dir, 'broken.mjs'), '--db', db, '--json']);
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.stdout) as Summary;
    expect(summary).toMatchObject({ status: 'done', rows: 8, graded_rows: 0, pass_at_1: null, judge_status_counts: { error: 8 }, grading_failed: true });
    expect(result.stderr).toMatch(/no row was graded: the judge broken\.mjs failed on every row \(8 error\)/);
    const text = await cli(['run', '--tasks', supportTasks, '--agent', 'seeded', '--k', '1', '--judge', path.join(dir, 'broken.mjs'), '--db', db]);
    expect(text.stderr).toMatch(/no row was graded/);
  });

  it('refuses a judge before the run exists: no run, and no database file it alone created', async () => {
    const fresh = path.join(dir, 'never.sqlite');
    const missing = await cli(['run', '--tasks', supportTasks, '--agent', 'seeded', '--judge', path.join(dir, 'nope.mjs'), '--db', fresh]);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toMatch(/nope\.mjs/);
    expect(fs.readdirSync(dir).filter((name) => name.startsWith('never.sqlite'))).toEqual([]);

    const runsBefore = (JSON.parse((await cli(['runs', '--db', db, '--json'])).stdout) as unknown[]).length;
    const syntax = await cli(['run', '--tasks', supportTasks, '--agent', 'seeded', '--judge', path.join(dir, 'syntax.mjs'), '--db', db]);
    expect(syntax.code).toBe(1);
    expect(syntax.stderr).toMatch(/syntax\.mjs/);
    expect((JSON.parse((await cli(['runs', '--db', db, '--json'])).stdout) as unknown[]).length).toBe(runsBefore);
    expect(fs.existsSync(db)).toBe(true);
  });

  it('shows every default in run --help, and refuses out-of-range flags', async () => {
    const help = await cli(['run', '--help']);
    expect(help.code).toBe(0);
    for (const text of ['default 8', 'default 0.3', 'default OPENAI_API_KEY', '--judge-timeout', 'default 10)', 'default auto']) expect(help.stdout).toContain(text);
    const bad = await cli(['run', '--tasks', supportTasks, '--agent', 'seeded', '--judge', 'x.mjs', '--judge-timeout', '0', '--db', db]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--judge-timeout must be a number of seconds above 0/);
    const spec = await cli(['run', '--tasks', supportTasks, '--agent', 'openai:m@ftp://h/v1', '--db', db]);
    expect(spec.code).toBe(1);
    expect(spec.stderr).toMatch(/must start with http/);
  });
});
