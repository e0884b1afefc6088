// `while-desk init DIR` writes an example project whose printed command runs offline and grades a mix of passes and failures.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildEngine, repoRoot, tempDir } from '../helpers/temp';

const bin = path.join(repoRoot, 'bin', 'while-desk.mjs');

function cli(args: string[], cwd: string) {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('while-desk init', () => {
  beforeAll(() => buildEngine(), 120_000);

  it('writes tasks and two judges, prints one command that runs offline with a mix of rewards', () => {
    const cwd = tempDir('while-init-');
    const made = cli(['init', 'example'], cwd);
    expect(made.code).toBe(0);
    for (const name of ['tasks.jsonl', 'judge.mjs', 'rules.json']) expect(fs.existsSync(path.join(cwd, 'example', name))).toBe(true);
    const printed = made.stdout.trim().split('\n');
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatch(/^while-desk run --tasks \S+ --agent seeded --k 4 --judge \S+$/);

    const args = printed[0].split(' ').slice(1);
    const run = cli([...args, '--db', path.join(cwd, 'desk.db'), '--json'], cwd);
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout.trim().split('\n').at(-1) as string) as { status: string; pass_at_1: number; rows: number };
    expect(summary.status).toBe('done');
    expect(summary.rows).toBe(24);
    expect(summary.pass_at_1).toBeGreaterThan(0);
    expect(summary.pass_at_1).toBeLessThan(1);

    const rules = cli(['run', '--tasks', 'example/tasks.jsonl', '--agent', 'seeded', '--k', '4', '--judge', 'example/rules.json', '--db', path.join(cwd, 'desk.db'), '--json'], cwd);
    expect(rules.code).toBe(0);
    const graded = JSON.parse(rules.stdout.trim().split('\n').at(-1) as string) as { pass_at_1: number };
    expect(graded.pass_at_1).toBeGreaterThan(0);
    expect(graded.pass_at_1).toBeLessThan(1);
  });

  it('refuses to overwrite an example without --force', () => {
    const cwd = tempDir('while-init-');
    expect(cli(['init', 'x'], cwd).code).toBe(0);
    const again = cli(['init', 'x'], cwd);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/--force/);
    expect(cli(['init', 'x', '--force'], cwd).code).toBe(0);
  });
});
