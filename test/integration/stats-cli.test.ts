// `while-desk stats pass-at FILE --json` on the public conformance cases, and the same through a dataset id.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deltaReport } from '../../shared/stats/delta-report';
import { buildEngine, repoRoot } from '../helpers/build-engine';

const conformance = path.resolve(repoRoot, 'test/fixtures/conformance');
const cases = fs.existsSync(path.join(conformance, 'cases'))
  ? fs.readdirSync(path.join(conformance, 'cases')).filter((name) => name.startsWith('pass_at_')).sort()
  : [];

type Json = unknown;

/** Conformance rules: numbers within 1e-9 (resampled fields within their allowance), free text skipped, every key present. */
function compare(expected: Json, actual: Json, at: string, resampled: Map<string, number>, problems: string[]): void {
  const allowance = resampled.get(at);
  if (typeof expected === 'number') {
    const tolerance = allowance ?? 1e-9 * Math.max(1, Math.abs(expected));
    if (typeof actual !== 'number' || Math.abs(actual - expected) > tolerance) problems.push(`${at}: expected ${expected}, got ${JSON.stringify(actual)}`);
    return;
  }
  if (typeof expected === 'string' && expected.includes(' ')) return;
  if (expected === null || typeof expected !== 'object') {
    if (expected !== actual) problems.push(`${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) {
      problems.push(`${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
      return;
    }
    expected.forEach((item, i) => compare(item, actual[i], `${at}[${i}]`, resampled, problems));
    return;
  }
  if (actual === null || typeof actual !== 'object') {
    problems.push(`${at}: expected an object, got ${JSON.stringify(actual)}`);
    return;
  }
  for (const [key, value] of Object.entries(expected)) {
    if (!(key in (actual as object))) problems.push(`${at ? `${at}.` : ''}${key}: missing`);
    else compare(value, (actual as Record<string, Json>)[key], at ? `${at}.${key}` : key, resampled, problems);
  }
}

function resampledFields(caseDir: string): Map<string, number> {
  const file = path.join(caseDir, 'resampling.json');
  const out = new Map<string, number>();
  if (!fs.existsSync(file)) return out;
  const fields = (JSON.parse(fs.readFileSync(file, 'utf8')).numeric_fields ?? {}) as Record<string, { max_abs_dev_from_reference: number }>;
  for (const [name, spread] of Object.entries(fields)) out.set(name, Math.max(0.05, 3 * spread.max_abs_dev_from_reference));
  return out;
}

const FLAG: Record<string, (v: unknown) => string[]> = {
  k: (v) => ['--k', v === null ? 'none' : String(v)],
  min_k: (v) => ['--min-k', String(v)],
  unanimous_short: (v) => (v ? ['--unanimous-short'] : []),
};

function cli(args: string[], db: string): { code: number; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, ['bin/while-desk.mjs', ...args], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, WHILE_DESK_DB: db, WHILE_DESK_CHECK_OUTPUTS: '1' } });
  return { code: run.status ?? -1, stdout: run.stdout, stderr: run.stderr };
}

let dir: string;
beforeAll(async () => {
  await buildEngine();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stats-cli-'));
});
afterAll(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('while-desk stats pass-at on the conformance cases', () => {
  it('finds the public pass_at cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(4);
  });

  for (const name of cases) {
    it(name, () => {
      const caseDir = path.join(conformance, 'cases', name);
      const spec = JSON.parse(fs.readFileSync(path.join(caseDir, 'case.json'), 'utf8'));
      const expected = JSON.parse(fs.readFileSync(path.join(caseDir, 'expected.json'), 'utf8'));
      const flags = Object.entries(spec.call.kwargs as Record<string, unknown>).flatMap(([key, value]) => FLAG[key](value));
      const file = path.join(caseDir, `${String(spec.call.args[0]).slice(1)}.jsonl`);
      const run = cli(['stats', 'pass-at', file, '--json', ...flags], path.join(dir, 'unused.db'));
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const problems: string[] = [];
      compare(expected.result, JSON.parse(run.stdout), '', resampledFields(caseDir), problems);
      expect(problems).toEqual([]);
    });
  }

  it('neither opens nor creates a database for a statistic on files alone', () => {
    const db = path.join(dir, 'never-made.db');
    const file = path.join(conformance, 'cases', 'pass_at_k4_30tasks', 'rows.jsonl');
    const run = cli(['stats', 'pass-at', file, '--json', '--k', '4'], db);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout).k).toBe(4);
    expect(fs.existsSync(db)).toBe(false);
  });

  it('gives the same report for the file and for the dataset imported from it, and reads as plain words', () => {
    const file = path.join(conformance, 'cases', 'pass_at_k4_30tasks', 'rows.jsonl');
    const db = path.join(dir, 'desk.db');
    const imported = JSON.parse(execFileSync(process.execPath, ['bin/while-desk.mjs', 'import', file, '--json', '--db', db], { cwd: repoRoot, encoding: 'utf8' }));
    const byId = cli(['stats', 'pass-at', imported.dataset_id, '--json', '--db', db], db);
    const byFile = cli(['stats', 'pass-at', file, '--json'], db);
    expect(byId.code).toBe(0);
    expect(JSON.parse(byId.stdout)).toEqual(JSON.parse(byFile.stdout));
    const readable = cli(['stats', 'pass-at', imported.dataset_id, '--db', db], db);
    expect(readable.code).toBe(0);
    expect(readable.stdout).toMatch(/30 tasks/);
    expect(readable.stdout).toMatch(/pass\^4 .*95% interval \[/);
    const bad = cli(['stats', 'pass-at', file, '--k', 'two'], db);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--k must be a whole number/);
  });

  it('refuses parameters outside their ranges with the flag named, and a bad line with file:line', () => {
    const db = path.join(dir, 'desk.db');
    const base = cli(['stats', 'holdout-size', '--effect', '0.05', '--base', '1.5'], db);
    expect(base.code).toBe(1);
    expect(base.stderr).toMatch(/--base must be between 0 and 1 \(got 1\.5\)/);
    const zero = cli(['stats', 'pass-at', path.join(conformance, 'cases', 'pass_at_k4_30tasks', 'rows.jsonl'), '--k', '0'], db);
    expect(zero.code).toBe(1);
    expect(zero.stderr).toMatch(/--k must be at least 1/);
    expect(cli(['stats', 'holdout-size'], db).stderr).toMatch(/holdout-size needs --effect/);
    const broken = path.join(dir, 'broken.jsonl');
    fs.writeFileSync(broken, '{"scenario_id": "a", "reward": 1}\n{"scenario_id": "b", "reward": \n');
    const line = cli(['stats', 'pass-at', broken], db);
    expect(line.code).toBe(1);
    expect(line.stderr).toContain(`${broken}:2: not valid JSON`);
  });

  it('cuts a large file in two threads: the same report as its dataset, and a bad line named by its place in the whole file', () => {
    const db = path.join(dir, 'big.db');
    const lines: string[] = [];
    // Over the 4 MiB at which the worker folds the second half in a helper thread.
    for (let t = 0; lines.length < 20_000; t++) {
      for (let r = 0; r < 4; r++) {
        lines.push(JSON.stringify({ scenario_id: `task_${t}`, rollout_index: r, prompt: `Task ${t}: ${'please help '.repeat(15)}`, final_text: `Reply ${t}/${r}`, steps: [], reward: (t * 7 + r * 3) % 5 < 2 ? 1 : 0, judge_status: 'ok', sampling: { temperature: t < 4000 ? 0.7 : 1 }, finish_reason: r === 3 && t % 10 === 0 ? 'length' : 'stop' }));
      }
    }
    const big = path.join(dir, 'big.jsonl');
    fs.writeFileSync(big, lines.join('\n') + '\n');
    expect(fs.statSync(big).size).toBeGreaterThan(5 << 20);
    const imported = JSON.parse(execFileSync(process.execPath, ['bin/while-desk.mjs', 'import', big, '--json', '--db', db], { cwd: repoRoot, encoding: 'utf8' }));
    const byFile = cli(['stats', 'pass-at', big, '--json', '--k', '4'], db);
    const byId = cli(['stats', 'pass-at', imported.dataset_id, '--json', '--k', '4', '--db', db], db);
    expect(byFile.stderr).toBe('');
    expect(JSON.parse(byFile.stdout)).toEqual(JSON.parse(byId.stdout));
    expect(JSON.parse(byFile.stdout).config.mixed).toEqual(['temperature']);

    const late = 18_500; // in the second half
    const broken = path.join(dir, 'big-broken.jsonl');
    fs.writeFileSync(broken, [...lines.slice(0, late - 1), '{"scenario_id": "x", "reward": ', ...lines.slice(late)].join('\n') + '\n');
    const refused = cli(['stats', 'pass-at', broken, '--k', '4'], db);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${broken}:${late}: not valid JSON`);
    const early = path.join(dir, 'big-both.jsonl');
    fs.writeFileSync(early, [...lines.slice(0, 99), '[1, 2', ...lines.slice(100, late - 1), '{"reward": ', ...lines.slice(late)].join('\n') + '\n');
    expect(cli(['stats', 'pass-at', early], db).stderr).toContain(`${early}:100: not valid JSON`);
    const latin = path.join(dir, 'big-latin1.jsonl');
    fs.writeFileSync(latin, Buffer.concat([Buffer.from(lines.slice(0, late - 1).join('\n') + '\n'), Buffer.from('{"prompt": "caf\xe9"}\n', 'latin1'), Buffer.from(lines.slice(late).join('\n') + '\n')]));
    expect(cli(['stats', 'pass-at', latin], db).stderr).toContain(`${latin}:${late}: not valid UTF-8 text`);
  });

  it('compares two large runs, each folded in a thread of its own: the report deltaReport gives on their rows, by file as by dataset, and a bad line named in its own file', () => {
    const db = path.join(dir, 'pair.db');
    const write = (name: string, shift: number) => {
      const lines: string[] = [];
      for (let t = 0; lines.length < 20_000; t++) {
        for (let r = 0; r < 4; r++) {
          const reward = (t * 7 + r * 3 + shift) % 10 < 4 + (t % 4) ? 1 : 0;
          lines.push(JSON.stringify({ scenario_id: `task_${t}`, rollout_index: r, prompt: `Task ${t}: ${'please help '.repeat(15)}`, final_text: `Reply ${t}/${r}`, steps: [], reward, category: `c${t % 3}`, markers: { tool_calls: (t + r + shift) % 3 }, sampling: { temperature: 0.7 }, policy_version: `agent@${name}` }));
        }
      }
      const file = path.join(dir, `${name}.jsonl`);
      fs.writeFileSync(file, lines.join('\n') + '\n');
      expect(fs.statSync(file).size).toBeGreaterThan(5 << 20); // over the 4 MiB at which a second file is folded elsewhere
      return { file, lines };
    };
    const before = write('before', 0);
    const after = write('after', 3);
    const ids = [before, after].map(({ file }) => JSON.parse(execFileSync(process.execPath, ['bin/while-desk.mjs', 'import', file, '--json', '--db', db], { cwd: repoRoot, encoding: 'utf8' })).dataset_id);
    const byFile = cli(['stats', 'delta', before.file, after.file, '--json', '--must-not-regress', 'tool_calls'], db);
    const byId = cli(['stats', 'delta', ids[0], ids[1], '--json', '--must-not-regress', 'tool_calls', '--db', db], db);
    expect(byFile.stderr).toBe('');
    const report = JSON.parse(byFile.stdout);
    expect(JSON.parse(byId.stdout)).toEqual(report);
    const parse = (lines: string[]) => lines.map((line) => JSON.parse(line));
    expect(report).toEqual(JSON.parse(JSON.stringify(deltaReport(parse(before.lines), parse(after.lines), { must_not_regress: ['tool_calls'] }))));
    expect(report.by).toBe('category');
    const compared = JSON.parse(cli(['compare', ids[0], ids[1], '--json', '--db', db], db).stdout);
    expect(compared.per_task_summary.n_paired).toBe(5000);
    expect(compared.per_task).toHaveLength(5000);

    const late = 15_000;
    const broken = path.join(dir, 'after-broken.jsonl');
    fs.writeFileSync(broken, [...after.lines.slice(0, late - 1), '{"scenario_id": "x", "reward": ', ...after.lines.slice(late)].join('\n') + '\n');
    const refused = cli(['stats', 'delta', before.file, broken], db);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${broken}:${late}: not valid JSON`);
    const brokenEarly = path.join(dir, 'after-broken-early.jsonl');
    fs.writeFileSync(brokenEarly, [...after.lines.slice(0, 1999), '{"reward": ', ...after.lines.slice(2000)].join('\n') + '\n');
    expect(cli(['stats', 'delta', before.file, brokenEarly], db).stderr).toContain(`${brokenEarly}:2000: not valid JSON`); // in the part folded here
    // Both sides refused: the first side's error is the one reported, as reading the rows in order would.
    const brokenBefore = path.join(dir, 'before-broken.jsonl');
    fs.writeFileSync(brokenBefore, [...before.lines.slice(0, 9), '[1, 2', ...before.lines.slice(10)].join('\n') + '\n');
    expect(cli(['stats', 'delta', brokenBefore, broken], db).stderr).toContain(`${brokenBefore}:10: not valid JSON`);
  });

  it('lists every statistic of the registry in its usage, and runs the reliability curve', () => {
    const help = cli(['stats', '--help'], path.join(dir, 'desk.db'));
    for (const name of ['pass-at', 'reliability', 'curriculum', 'judge-trust', 'compare', 'delta', 'eval-variance', 'holdout-size', 'decontaminate']) {
      expect(help.stdout).toContain(`  ${name} `);
    }
    const file = path.join(conformance, 'cases', 'pass_at_k4_30tasks', 'rows.jsonl');
    const curve = cli(['stats', 'reliability', file, '--json'], path.join(dir, 'desk.db'));
    expect(curve.code).toBe(0);
    const out = JSON.parse(curve.stdout);
    expect(out.k_max).toBe(4);
    const passAt4 = JSON.parse(cli(['stats', 'pass-at', file, '--json'], path.join(dir, 'desk.db')).stdout);
    expect(out.points[3].pass_at_k).toBe(passAt4.pass_at_k);
    expect(out.points[3].pass_pow_k_ci95).toEqual(passAt4.pass_pow_k_ci95);
  });
});

const SUBCOMMAND: Record<string, string> = {
  curriculum: 'curriculum', compare_runs: 'compare', eval_variance: 'eval-variance', decontaminate: 'decontaminate',
  judge_trust: 'judge-trust', delta_report: 'delta', holdout_size: 'holdout-size',
};
const others = fs.existsSync(path.join(conformance, 'cases'))
  ? fs.readdirSync(path.join(conformance, 'cases')).filter((name) => {
      const spec = JSON.parse(fs.readFileSync(path.join(conformance, 'cases', name, 'case.json'), 'utf8'));
      return spec.function in SUBCOMMAND && fs.existsSync(path.join(conformance, 'cases', name, 'expected.json'));
    }).sort()
  : [];

/** One SDK call as `while-desk stats` arguments: "@name" -> that folder's JSONL file, kwargs -> kebab-case flags. */
function argsFor(fn: string, call: { args: unknown[]; kwargs: Record<string, unknown> }, caseDir: string): string[] {
  const file = (ref: unknown) => path.join(caseDir, `${String(ref).slice(1)}.jsonl`);
  const flags = Object.entries(call.kwargs).flatMap(([key, value]) => {
    const flag = `--${key.replace(/_/g, '-')}`;
    if (value === true) return [flag];
    if (value === false) return [];
    return [flag, value === null ? 'none' : Array.isArray(value) ? value.join(',') : String(value)];
  });
  if (fn === 'holdout_size') return ['stats', 'holdout-size', '--effect', String(call.args[0]), ...flags];
  if (fn === 'decontaminate') {
    const against = (Array.isArray(call.args[1]) ? call.args[1] : [call.args[1]]).flatMap((ref) => ['--against', file(ref)]);
    return ['stats', 'decontaminate', file(call.args[0]), ...against, ...flags];
  }
  const positional = call.args.filter((arg) => arg !== '$judge').map(file);
  const judge = call.args.includes('$judge') ? ['--judge', 'JUDGE'] : [];
  return ['stats', SUBCOMMAND[fn], ...positional, ...judge, ...flags];
}

describe('the other statistics through `while-desk stats --json`', () => {
  for (const name of others) {
    it(name, () => {
      const caseDir = path.join(conformance, 'cases', name);
      const spec = JSON.parse(fs.readFileSync(path.join(caseDir, 'case.json'), 'utf8'));
      const expected = JSON.parse(fs.readFileSync(path.join(caseDir, 'expected.json'), 'utf8'));
      const calls = spec.calls ?? [spec.call];
      const results = calls.map((call: { args: unknown[]; kwargs: Record<string, unknown> }) => {
        const args = argsFor(spec.function, call, caseDir).map((arg) => (arg === 'JUDGE' ? path.join(conformance, 'judges', `${spec.judge.name}.mjs`) : arg));
        const run = cli([...args, '--json'], path.join(dir, 'unused.db'));
        if ('error' in expected) return { code: run.code, stderr: run.stderr };
        expect(run.stderr).toBe('');
        expect(run.code).toBe(0);
        return JSON.parse(run.stdout);
      });
      if ('error' in expected) {
        expect(results[0].code).toBe(1);
        return;
      }
      const problems: string[] = [];
      compare(expected.result, spec.calls ? results : results[0], '', resampledFields(caseDir), problems);
      expect(problems).toEqual([]);
    });
  }
});

