// `while-desk sweep` end to end on offline seeded agents: a real winner, an unequal arm refused by name, labels
// refused before anything is written, a tiny eval that reads unproven, and kill -9 mid-sweep then resume.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepReportSchema } from '../../shared/api/sweeps';
import { bin, buildEngine, cli, root, runRows } from './sim-run-helpers';
import { armRows, referenceJudge, tableCount, writeJson, writeTasks } from './sweep-helpers';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wd-sweep-'));
const tasks100 = path.join(dir, 'tasks100.jsonl');
const tasks5 = path.join(dir, 'tasks5.jsonl');
const tasks40 = path.join(dir, 'tasks40.jsonl');

const variants = [
  { label: 'careful@seeded', system_prompt: 'Be careful: look everything up with the tools.', agent: { kind: 'seeded', misbehave_rate: 0.02, seed: 11 } },
  { label: 'plain@seeded', system_prompt: 'Answer the customer.', agent: { kind: 'seeded', misbehave_rate: 0.35, seed: 12 } },
  { label: 'hasty@seeded', system_prompt: 'Answer fast.', agent: 'seeded' },
];

beforeAll(async () => {
  await buildEngine();
  writeTasks(tasks100, 100);
  writeTasks(tasks5, 5);
  writeTasks(tasks40, 40);
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const sweepIdOf = (stderr: string) => /sweep (sweep-[0-9a-f]+)/.exec(stderr)?.[1] ?? '';

describe('while-desk sweep', () => {
  const db = path.join(dir, 'winner.sqlite');

  it('ranks three seeded variants on one frozen task set and names the real winner', async () => {
    const file = writeJson(path.join(dir, 'variants.json'), variants);
    const out = await cli(['sweep', '--tasks', tasks100, '--variants', file, '--judge', referenceJudge, '--k', '4', '--noise-runs', '3', '--db', db, '--json'], 120_000);
    expect(out.stderr).toMatch(/^sweep sweep-[0-9a-f]+\n/);
    expect(out.code).toBe(0);
    const report = sweepReportSchema.parse(JSON.parse(out.stdout));
    expect(report).toMatchObject({ behavior: 'policy', n_asks: 100, k: 4, noise_runs: 3, best: 'careful@seeded', unproven: false });
    expect(report.variants.map((v) => v.label)).toEqual(['careful@seeded', 'plain@seeded', 'hasty@seeded']);
    for (const v of report.variants) expect(v.graded_rows).toBe(400);
    expect(report.noise_floor).toBeGreaterThan(0);
    const [top, second] = report.variants.map((v) => v.scores.policy);
    expect(top[0] - second[0]).toBeGreaterThan(Math.max(report.noise_floor ?? 0, Math.hypot(top[1], second[1])));
    expect(report.text).toMatch(/winner: careful@seeded/);

    const sweepId = sweepIdOf(out.stderr);
    const arms = armRows(db, sweepId);
    expect(arms.map((a) => [a.arm, a.rerun, a.rows])).toEqual([[0, 0, 400], [1, 0, 400], [2, 0, 400], [0, 1, 400], [0, 2, 400]]);
    // The report names each arm's run, and the variant's prompt replaced the tasks' own on its rows.
    expect(report.variants.find((v) => v.label === 'plain@seeded')?.run).toBe(arms[1].run_id);
    const plainRows = runRows(db, arms[1].run_id);
    expect(new Set(plainRows.map((r) => (r.row.lineage as Record<string, unknown>).system_prompt_head))).toEqual(new Set(['Answer the customer.']));

    const listed = JSON.parse((await cli(['sweep', '--list', '--db', db, '--json'])).stdout) as Array<Record<string, unknown>>;
    expect(listed[0]).toMatchObject({ id: sweepId, status: 'done', rows: 2000, expected_rows: 2000, best: 'careful@seeded', variants: 3 });
    const text = await cli(['resume', sweepId, '--db', db]);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/already done; nothing to resume/);
    expect(text.stdout).toMatch(/harness sweep on policy: 3 variants, 100 asks x 4/);
  }, 180_000);

  it('refuses a label over 40 characters, and two equal labels, before anything is written', async () => {
    const long = writeJson(path.join(dir, 'long.json'), [variants[0], { ...variants[1], label: 'a-very-long-prompt-name-nobody-should-use@seeded' }]);
    const fresh = path.join(dir, 'fresh.sqlite');
    const refused = await cli(['sweep', '--tasks', tasks5, '--variants', long, '--judge', referenceJudge, '--db', fresh]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/variant 2 label "a-very-long-prompt-name-nobody-should-use@seeded" is 48 characters; a run version holds 40/);
    expect(refused.stderr).toMatch(/nothing was written/);
    expect(fs.existsSync(fresh)).toBe(false);

    // On a database that holds a sweep already: no sweep, no run, no row added.
    const before = ['sweeps', 'runs', 'rows'].map((t) => tableCount(db, t));
    const again = await cli(['sweep', '--tasks', tasks5, '--variants', long, '--judge', referenceJudge, '--db', db]);
    expect(again.code).not.toBe(0);
    const twice = writeJson(path.join(dir, 'twice.json'), [variants[0], { ...variants[1], label: 'careful@seeded' }]);
    const dup = await cli(['sweep', '--tasks', tasks5, '--variants', twice, '--judge', referenceJudge, '--db', db]);
    expect(dup.code).not.toBe(0);
    expect(dup.stderr).toMatch(/two variants are labelled "careful@seeded"/);
    expect(['sweeps', 'runs', 'rows'].map((t) => tableCount(db, t))).toEqual(before);
  }, 60_000);

  it('refuses an arm whose graded rows per ask differ from the first arm\'s, by name, with both counts', async () => {
    // A judge that errors on some rows of one arm only: their reward stays null, so that arm has fewer graded rows.
    const judge = path.join(dir, 'flaky-judge.mjs');
    fs.writeFileSync(
      judge,
      `export default function judge(row) {
  if (String(row.lineage?.system_prompt_head ?? '').startsWith('Broken') && /-[0-2]$/.test(row.scenario_id)) throw new Error('judge broke');
  return { reward: String(row.final_text ?? '').toLowerCase().includes(String(row.privileged?.reference ?? '').toLowerCase()) ? 1 : 0 };
}\n`,
    );
    const file = writeJson(path.join(dir, 'unequal.json'), [variants[0], { label: 'broken@seeded', system_prompt: 'Broken prompt.', agent: 'seeded' }]);
    const udb = path.join(dir, 'unequal.sqlite');
    const out = await cli(['sweep', '--tasks', tasks40, '--variants', file, '--judge', judge, '--k', '2', '--db', udb, '--json'], 60_000);
    expect(out.code).toBe(1);
    expect(out.stdout).toBe('');
    expect(out.stderr).toMatch(/broken@seeded has 74 graded rows on 37 asks, careful@seeded has 80 on 40; 3 ask\(s\) differ/);
    const sweepId = sweepIdOf(out.stderr);
    const detail = JSON.parse((await cli(['sweep', '--list', '--db', udb, '--json'])).stdout) as Array<Record<string, unknown>>;
    expect(detail[0]).toMatchObject({ id: sweepId, status: 'failed', best: null });
  }, 60_000);

  it('reads unproven on a tiny eval', async () => {
    const file = writeJson(path.join(dir, 'tiny.json'), variants.slice(0, 2));
    const out = await cli(['sweep', '--tasks', tasks5, '--variants', file, '--judge', referenceJudge, '--k', '2', '--db', path.join(dir, 'tiny.sqlite'), '--json']);
    expect(out.code).toBe(0);
    const report = sweepReportSchema.parse(JSON.parse(out.stdout));
    expect(report.n_asks).toBe(5);
    expect(report.unproven).toBe(true);
    expect(report.text).toMatch(/5 asks is under 50: the verdict stays unproven/);
  }, 60_000);
});

/** Starts `while-desk ARGS`, kill -9 once the database holds more than `atRows` rows. */
function killWhenRows(args: string[], db: string, atRows: number): Promise<{ stderr: string; killed: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const deadline = Date.now() + 60_000;
    const poll = setInterval(() => {
      let rows = 0;
      try {
        rows = tableCount(db, 'rows');
      } catch {
        rows = 0;
      }
      if (rows > atRows || Date.now() > deadline) {
        clearInterval(poll);
        child.kill('SIGKILL');
        if (rows <= atRows) reject(new Error('the sweep never reached the kill point'));
      }
    }, 20);
    child.on('exit', (code, signal) => {
      clearInterval(poll);
      resolve({ stderr, killed: signal === 'SIGKILL' && code === null });
    });
  });
}

describe('kill -9 mid-sweep', () => {
  it('resumes: finished arms kept, the interrupted arm resumed, missing arms started; every arm exactly tasks x k rows', async () => {
    const db = path.join(dir, 'kill.sqlite');
    const file = writeJson(path.join(dir, 'kill.json'), variants);
    const K = 60;
    const perArm = 40 * K;
    const first = await killWhenRows(['sweep', '--tasks', tasks40, '--variants', file, '--judge', referenceJudge, '--k', String(K), '--json', '--db', db], db, perArm + 300);
    expect(first.killed).toBe(true);
    const sweepId = sweepIdOf(first.stderr);
    expect(sweepId).not.toBe('');
    const before = armRows(db, sweepId);
    expect(before[0].rows).toBe(perArm);
    const keptRun = before[0].run_id;
    expect(before.length).toBeLessThan(4);

    const listed = JSON.parse((await cli(['sweep', '--list', '--db', db, '--json'])).stdout) as Array<{ id: string; status: string }>;
    expect(listed[0]).toMatchObject({ id: sweepId, status: 'interrupted' });

    const resumed = await cli(['resume', sweepId, '--db', db, '--json'], 120_000);
    expect(resumed.stderr).toMatch(new RegExp(`sweep ${sweepId}\nresuming: \\d+ of ${4 * perArm} rollouts to go`));
    expect(resumed.code).toBe(0);
    const report = sweepReportSchema.parse(JSON.parse(resumed.stdout));
    expect(report.variants).toHaveLength(3);
    const after = armRows(db, sweepId);
    expect(after.map((a) => [a.arm, a.rerun])).toEqual([[0, 0], [1, 0], [2, 0], [0, 1]]);
    for (const arm of after) {
      expect(arm.rows).toBe(perArm);
      expect(arm.slots).toBe(perArm);
    }
    expect(after[0].run_id).toBe(keptRun);
    expect(tableCount(db, 'runs')).toBe(4);
  }, 240_000);
});
