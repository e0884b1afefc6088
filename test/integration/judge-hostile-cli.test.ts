// Hostile judges through the command line (the CLI bundle in a child process, with a time limit): `grade` and
// `run` finish by themselves, with their usual exit status; a bad judge is refused up front and nothing is written.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEngine, cli, supportTasks } from './sim-run-helpers';

beforeAll(buildEngine, 120_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'judge-hostile-cli-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const dbPath = path.join(dir, 'desk.db');

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

const datasetCount = () => {
  const db = new Database(dbPath, { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM datasets').get() as { n: number }).n;
  } finally {
    db.close();
  }
};

let sourceId = '';

describe('hostile judges on the command line', () => {
  beforeAll(async () => {
    const rows = Array.from({ length: 12 }, (_, i) => JSON.stringify({ schema_version: '1', scenario_id: `s${i}`, rollout_index: 0, prompt: 'p', steps: [], final_text: i === 3 ? `${'a'.repeat(40)}!` : `answer ${i}` }));
    const imported = await cli(['import', write('rows.jsonl', rows.join('\n') + '\n'), '--db', dbPath, '--json']);
    expect(imported.code).toBe(0);
    sourceId = JSON.parse(imported.stdout).dataset_id;
  }, 60_000);

  it('grade with a judge that loops on every row: bounded, exit 0, the summary says nothing was scored', async () => {
    const judge = write('loop.mjs', 'setInterval(() => {}, 10);\nexport default () => { for (;;) {} };\n');
    const started = Date.now();
    const result = await cli(['grade', sourceId, '--judge', judge, '--judge-timeout', '0.3', '--db', dbPath, '--json'], 40_000);
    expect(result.code).toBe(0);
    expect(Date.now() - started).toBeLessThan(30_000);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({ rows: 12, graded: 0, all_failed: true, mean_reward: null, judge_status_counts: { ok: 0, timeout: 12 } });
    const text = await cli(['grade', sourceId, '--judge', write('exit.mjs', 'export default () => process.exit(1);\n'), '--db', dbPath], 40_000);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/the judge scored none of the 12 rows: 12 crashed/);
  }, 90_000);

  it('grade with a catastrophic regex answers at once; run with leftover timers and a per-row exit still ends', async () => {
    const rules = write('redos.json', JSON.stringify({ rule: { regex: '^(a+)+$' } }));
    const graded = await cli(['grade', sourceId, '--judge', rules, '--db', dbPath, '--json'], 20_000);
    expect(graded.code).toBe(0);
    expect(JSON.parse(graded.stdout)).toMatchObject({ rows: 12, graded: 12, mean_reward: 0 });
    const judge = write('leaky.mjs', 'setInterval(() => {}, 5);\nexport default (row) => { setInterval(() => {}, 1); if (row.scenario_id === "refund-1") process.exit(2); return 1; };\n');
    const run = await cli(['run', '--tasks', supportTasks, '--agent', 'seeded', '--k', '2', '--misbehave-rate', '0', '--judge', judge, '--db', dbPath, '--json'], 40_000);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout.trim().split('\n').pop()!)).toMatchObject({ status: 'done', rows: 16 });
  }, 90_000);

  it('refuses bad judges up front with the file and where, writing nothing', async () => {
    const before = datasetCount();
    const refusals: Array<[string, RegExp]> = [
      [write('unknown.json', JSON.stringify({ rule: { all: [{ contains: 'x' }, { sounds_like: 'y' }] } })), /unknown\.json: rule\.all\[1\]: has none of contains, regex/],
      [write('lookahead.json', JSON.stringify({ rule: { regex: '(?=a)b' } })), /lookahead\.json: rule\.regex: not a valid regular expression: .*unsupported Perl syntax/],
      [write('deep.json', JSON.stringify({ rule: JSON.parse('{"not":'.repeat(40) + '{"contains":"x"}' + '}'.repeat(40)) })), /deep\.json: .*nest too deep/],
      [write('deeper.json', '['.repeat(5000) + ']'.repeat(5000)), /deeper\.json: .*nesting too deep/],
      [write('syntax.mjs', 'export default (row) => {\n  return row.;\n};\n'), /syntax\.mjs:2:\d+ has a syntax error/],
      [write('throws.mjs', 'throw new Error("no config file");\nexport default () => 1;\n'), /could not load judge .*throws\.mjs: Error: no config file/],
      [path.join(dir, 'missing.mjs'), /judge file .*missing\.mjs does not exist/],
    ];
    for (const [judge, message] of refusals) {
      const result = await cli(['grade', sourceId, '--judge', judge, '--db', dbPath], 30_000);
      expect(result.code, judge).toBe(1);
      expect(result.stderr).toMatch(message);
    }
    expect(datasetCount()).toBe(before);
  }, 120_000);
});
