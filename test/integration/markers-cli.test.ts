// `while-desk markers` and `stats style|refusal|grounding` through the CLI process on an imported dataset: the
// stamped markers' marker_summary (a judge's own marker kept beside them) and the SDK's report keys with --json.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildEngine, repoRoot } from '../helpers/build-engine';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wd-markers-cli-'));
const db = path.join(dir, 'desk.sqlite');
const rows = path.join(repoRoot, 'test/fixtures/markers/mixed.jsonl');

function cli(args: string[]) {
  const out = spawnSync(process.execPath, [path.join(repoRoot, 'bin/while-desk.mjs'), ...args, '--db', db], { cwd: repoRoot, encoding: 'utf8' });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

let dataset = '';
beforeAll(async () => {
  await buildEngine();
  const imported = cli(['import', rows]);
  expect(imported.code, imported.stderr).toBe(0);
  dataset = /dataset (\S+)/.exec(imported.stdout)![1];
}, 120_000);

describe('while-desk markers', () => {
  it('stamps the rows and prints marker_summary with the SDK keys, the judge marker kept', () => {
    const out = cli(['markers', dataset, '--json']);
    expect(out.code, out.stderr).toBe(0);
    const summary = JSON.parse(out.stdout);
    // The row with a judge marker keeps it (one row carries it); every stamped name covers all four rows.
    expect(summary.judge_ok).toMatchObject({ n_rows: 1, mean: 1 });
    // Two of the four rows call a tool with a value the conversation never gave (999; the file content).
    expect(summary.argument_grounding).toMatchObject({ metric: 'marker:argument_grounding', n_rows: 4, n_rows_at_0: 2, mean: 0.5 });
    expect(summary.no_boilerplate).toMatchObject({ n_rows: 4, n_rows_at_0: 1 });
    for (const key of ['metric', 'n_tasks', 'n_rows', 'n_rows_at_1', 'n_rows_at_0', 'mean', 'ci95', 'degenerate']) expect(summary.answered).toHaveProperty(key);
    // The stamp is stored: the plain summary (no --stamp) now sees every stamped marker.
    const plain = JSON.parse(cli(['stats', 'marker-summary', dataset, '--json']).stdout);
    expect(plain.argument_grounding).toMatchObject({ n_rows: 4, n_rows_at_0: 2 });
    expect(plain.judge_ok).toMatchObject({ n_rows: 1, mean: 1 });
  });

  it('stores the stamp on the rows: export shows it, a judge marker wins, a second stamp changes nothing', () => {
    const exportRows = (name: string) => {
      const out = cli(['export', dataset, path.join(dir, name)]);
      expect(out.code, out.stderr).toBe(0);
      return fs.readFileSync(path.join(dir, name), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    };
    const first = exportRows('first.jsonl');
    expect(first).toHaveLength(4);
    for (const row of first) {
      expect(row.markers).toHaveProperty('no_hedging');
      expect(row.markers).toHaveProperty('argument_grounding');
      expect(row.markers).toHaveProperty('honest_claims');
      expect(typeof row.trace_flags).toBe('object');
    }
    expect(first.filter((row) => row.markers.judge_ok === 1)).toHaveLength(1);
    const again = cli(['markers', dataset]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/stamped 0 of 4 rows/);
    expect(exportRows('second.jsonl')).toEqual(first);
  });

  it('keeps a row\'s own marker over the stamp on a clash', () => {
    const file = path.join(dir, 'own.jsonl');
    fs.writeFileSync(file, JSON.stringify({ scenario_id: 'x', prompt: 'hi', final_text: 'I apologize, here it is.', reward: 1, markers: { no_apology: 1 } }) + '\n');
    const id = /dataset (\S+)/.exec(cli(['import', file]).stdout)![1];
    expect(cli(['markers', id]).stdout).toMatch(/stamped 1 of 1 rows/);
    const out = path.join(dir, 'own-out.jsonl');
    cli(['export', id, out]);
    const row = JSON.parse(fs.readFileSync(out, 'utf8').trim());
    expect(row.markers.no_apology).toBe(1);
    expect(row.markers.no_boilerplate).toBe(1);
  });

  it('prints the style, refusal and grounding reports with the SDK keys', () => {
    const style = JSON.parse(cli(['stats', 'style', dataset, '--json']).stdout);
    expect(style).toMatchObject({ n: 4, n_graded: 4 });
    expect(style.markers.no_boilerplate).toMatchObject({ hits: 1, top_phrases: [['great question', 1]] });
    const refusal = JSON.parse(cli(['stats', 'refusal', dataset, '--json']).stdout);
    expect(Object.keys(refusal)).toEqual(['n', 'n_refused', 'refusal_rate', 'ci95', 'top_phrases', 'examples']);
    expect(refusal.n_refused).toBe(0);
    const grounding = JSON.parse(cli(['stats', 'grounding', dataset, '--json']).stdout);
    expect(grounding).toMatchObject({ rows: 4, grounded_rate: 0.5, rows_with_calls: 3 });
    expect(grounding.invented.map((entry: { argument: string }) => entry.argument).sort()).toEqual(['get_order.order_id', 'write_file.content']);
  });

  it('says what is wrong without a dataset', () => {
    const out = cli(['markers']);
    expect(out.code).not.toBe(0);
    expect(out.stderr).toMatch(/name a dataset/);
  });
});
