// `while-desk compare A B` on two offline seeded runs: the delta_report reading plus the per-task table, in text and JSON;
// on two imported datasets, the folds it made are kept (rows/kept-folds.ts) before the command exits.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildEngine, repoRoot, tempDir } from '../helpers/temp';

const bin = path.join(repoRoot, 'bin', 'while-desk.mjs');

function cli(args: string[], cwd: string) {
  const result = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function runId(stdout: string): string {
  return (JSON.parse(stdout.trim().split('\n').at(-1) as string) as { run_id: string }).run_id;
}

describe('while-desk compare', () => {
  let cwd = '';
  let baseline = '';
  let candidate = '';
  beforeAll(async () => {
    await buildEngine();
    cwd = tempDir('while-compare-');
    expect(cli(['init', 'ex'], cwd).code).toBe(0);
    const run = (rate: string) => cli(['run', '--tasks', 'ex/tasks.jsonl', '--agent', 'seeded', '--k', '4', '--judge', 'ex/judge.mjs', '--misbehave-rate', rate, '--db', 'desk.db', '--json'], cwd);
    baseline = runId(run('0.7').stdout);
    candidate = runId(run('0.05').stdout);
  }, 120_000);

  it('--json is the SDK delta_report dict with pass_at_1 as the target, plus every task paired', () => {
    const out = cli(['compare', baseline, candidate, '--db', 'desk.db', '--json'], cwd);
    expect(out.code).toBe(0);
    const report = JSON.parse(out.stdout) as Record<string, unknown> & { per_task: Array<Record<string, unknown>>; per_task_summary: Record<string, number> };
    expect(report.target).toBe('pass_at_1');
    expect(typeof report.headline_verdict).toBe('string');
    expect(report.n_paired_tasks).toBe(6);
    expect(report.per_task).toHaveLength(6);
    expect(report.per_task_summary.n_paired).toBe(6);
    for (const task of report.per_task) expect(task.delta).toBeCloseTo((task.candidate as number) - (task.baseline as number));
    const deltas = report.per_task.map((t) => t.delta as number);
    expect([...deltas].sort((a, b) => a - b)).toEqual(deltas);
    expect(report.metrics).toHaveProperty('pass_at_1');
  });

  it('prints the headline, the metric table and the moved tasks; a bad id is refused', () => {
    const out = cli(['compare', baseline, candidate, '--db', 'desk.db', '--must-not-regress', 'called_tool'], cwd);
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/Target pass_at_1:/);
    expect(out.stdout).toMatch(/Per task: 6 paired/);
    const bad = cli(['compare', baseline, 'no-such-run', '--db', 'desk.db'], cwd);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/no-such-run/);
  });

  it('on two imported datasets, keeps the folds it made before it exits, and the next compare reads them', () => {
    const lines = (shift: number) =>
      Array.from({ length: 80 }, (_, i) => JSON.stringify({ scenario_id: `t${i >> 2}`, rollout_index: i % 4, prompt: `Q${i >> 2}`, final_text: 'a', steps: [], reward: (i + shift) % 3 === 0 ? 1 : 0 })).join('\n') + '\n';
    const ids = [0, 1].map((shift) => {
      fs.writeFileSync(path.join(cwd, `imported-${shift}.jsonl`), lines(shift));
      return (JSON.parse(cli(['import', `imported-${shift}.jsonl`, '--db', 'desk.db', '--json'], cwd).stdout) as { dataset_id: string }).dataset_id;
    });
    const kept = () => {
      const db = new Database(path.join(cwd, 'desk.db'), { readonly: true });
      try {
        return db.prepare(`SELECT k.dataset_id FROM kept_folds k JOIN datasets d ON d.id = k.dataset_id AND d.version = k.version WHERE k.dataset_id IN (?, ?) ORDER BY 1`).pluck().all(...ids);
      } finally {
        db.close();
      }
    };
    expect(kept()).toEqual([]);
    const first = cli(['compare', ids[0], ids[1], '--db', 'desk.db', '--json'], cwd);
    expect(first.code).toBe(0);
    expect(kept()).toEqual([...ids].sort());
    const again = cli(['compare', ids[0], ids[1], '--db', 'desk.db', '--json'], cwd);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(first.stdout);
  });
});
