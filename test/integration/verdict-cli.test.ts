// `run --agent-name --version`, `promote` and `verdict` on offline seeded runs: beats, trails, about the same
// and a tiny eval that reads unproven with its gaps (platform-api.md §5.1-5.3).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { briefSchema, evalHealth, verdictResult } from '../../shared/api/agents';
import { buildEngine, cli } from './sim-run-helpers';
import { referenceJudge, writeTasks } from './sweep-helpers';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wd-verdict-'));
const db = path.join(dir, 'verdict.sqlite');
const tasks = path.join(dir, 'tasks.jsonl');
const tiny = path.join(dir, 'tiny.jsonl');

async function run(agent: string, version: string, rate: number, extra: string[] = [], file = tasks, database = db) {
  const out = await cli(['run', '--tasks', file, '--agent', 'seeded', '--misbehave-rate', String(rate), '--k', '4', '--judge', referenceJudge, '--agent-name', agent, '--version', version, '--db', database, '--json', ...extra], 120_000);
  expect(out.code).toBe(0);
}

async function verdictOf(args: string[], database = db) {
  const out = await cli(['verdict', ...args, '--db', database, '--json']);
  expect(out.stderr).toBe('');
  expect(out.code).toBe(0);
  const parsed = JSON.parse(out.stdout) as { verdict: unknown; checks: unknown; brief: unknown };
  return { verdict: verdictResult.parse(parsed.verdict), checks: evalHealth.parse(parsed.checks), brief: briefSchema.parse(parsed.brief) };
}

beforeAll(async () => {
  await buildEngine();
  writeTasks(tasks, 100);
  writeTasks(tiny, 5);
  // v1 misbehaves often and is scored three times (--runs 3: the noise floor); v2 rarely; s1 is v2's settings, another seed.
  await run('bot', 'v1', 0.4, ['--runs', '3']);
  await run('bot', 'v2', 0.05);
  await run('bot', 's1', 0.05, ['--seed', '1']);
}, 240_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('while-desk verdict', () => {
  it('shows agent name and version in `runs`, and refuses to promote a version no run scored', async () => {
    const runs = JSON.parse((await cli(['runs', '--db', db, '--json'])).stdout) as Array<{ agent_name: string; version: string }>;
    expect(runs.map((r) => `${r.agent_name} ${r.version}`).sort()).toEqual(['bot s1', 'bot v1', 'bot v2']);
    const text = await cli(['runs', '--db', db]);
    expect(text.stdout).toMatch(/VERSION/);
    expect(text.stdout).toMatch(/bot v2/);
    const refused = await cli(['promote', 'bot', 'v7', '--db', db]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/agent "bot" has no finished run of version "v7"; its versions: /);
  }, 60_000);

  it('reads beats against the served version, with the floor from the --runs 3 re-runs', async () => {
    expect((await cli(['promote', 'bot', 'v1', '--db', db])).stdout).toBe('bot: v1 is serving\n');
    const { verdict, checks, brief } = await verdictOf(['bot', '--version', 'v2']);
    expect(verdict).toMatchObject({ candidate: 'v2', serving: 'v1', excludes_zero: true, graded_by: 'program', n: 100 });
    expect(verdict.noise_floor).toBeGreaterThan(0);
    expect(verdict.line).toMatch(new RegExp(`^policy: v2 beats v1 by [0-9.]+ \\(interval excludes zero, clears the noise floor of ${verdict.noise_floor}\\)(; moved, replicated on [a-z_, ]+)?; graded by a program, n=100$`));
    expect(checks.checks.map((c) => c.key)).toEqual(['frozen', 'size', 'judge', 'length', 'noise', 'contamination', 'reward', 'canfail']);
    expect(checks.checks.find((c) => c.key === 'noise')).toMatchObject({ ok: true });
    expect(checks.checks.find((c) => c.key === 'judge')).toMatchObject({ ok: true, value: 'graded by a program' });
    // The brief resolves its own candidate, as tracked.brief() does: the newest version other than the served one.
    expect(brief.means).toMatch(/^s1 is better than v1 by [0-9.]+ points, outside the noise\.$/);
  }, 60_000);

  it('reads trails and about the same when the other version is served', async () => {
    expect((await cli(['promote', 'bot', 'v2', '--db', db])).stdout).toBe('bot: v2 is serving (was v1)\n');
    const trails = await verdictOf(['bot', '--version', 'v1']);
    expect(trails.verdict.line).toMatch(/^policy: v1 trails v2 by [0-9.]+ \(interval excludes zero, clears the noise floor of [0-9.]+\)/);
    const same = await verdictOf(['bot', '--version', 's1']);
    expect(same.verdict.excludes_zero).toBe(false);
    expect(same.verdict.line).toMatch(/^policy: s1 about the same as v2 \([+-][0-9.]+, interval includes zero\)/);
    // Without --version the candidate is the newest version other than the served one.
    const newest = await verdictOf(['bot']);
    expect(newest.verdict.candidate).toBe('s1');
    const text = await cli(['verdict', 'bot', '--version', 'v9', '--db', db]);
    expect(text.code).not.toBe(0);
    expect(text.stderr).toMatch(/'v9' has no score on 'policy'; scored there: v1, v2, s1\./);
  }, 60_000);

  it('reads unproven on a tiny eval, with its gaps', async () => {
    const tinyDb = path.join(dir, 'tiny.sqlite');
    await run('tiny', 'v1', 1, [], tiny, tinyDb);
    await run('tiny', 'v2', 0, [], tiny, tinyDb);
    await cli(['promote', 'tiny', 'v1', '--db', tinyDb]);
    const { verdict, checks } = await verdictOf(['tiny'], tinyDb);
    expect(verdict.line).toMatch(/^unproven: policy: v2 beats v1 by [0-9.]+ \(interval excludes zero, no noise floor declared\); graded by a program, n=5 \(n=5 under 50\)$/);
    expect(checks.checks.find((c) => c.key === 'size')).toMatchObject({ ok: false, action: 'add 45+ tasks' });
    expect(checks.checks.find((c) => c.key === 'noise')).toMatchObject({ ok: false });
    const text = await cli(['verdict', 'tiny', '--db', tinyDb]);
    expect(text.stdout).toMatch(/^unproven: policy: v2 beats v1/);
    expect(text.stdout).toMatch(/eval health: \d of \d good · weak · size, noise floor/);
  }, 60_000);
});
