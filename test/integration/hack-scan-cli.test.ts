// `while-desk stats hack-scan` through the CLI process: --json is the SDK's report (keys and numbers of the reference
// cases), on a file and on an imported dataset; --endorsed and the other keyword flags reach the scan; bad flags say
// which flag and why.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { compareOutputs } from '../../main/conformance/compare';
import { buildEngine, repoRoot } from '../helpers/build-engine';

const cases = path.join(repoRoot, 'test/fixtures/conformance/cases');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wd-hack-cli-'));
const db = path.join(dir, 'desk.sqlite');

function cli(args: string[]) {
  const out = spawnSync(process.execPath, [path.join(repoRoot, 'bin/while-desk.mjs'), ...args, '--db', db], { cwd: repoRoot, encoding: 'utf8' });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

const SDK_KEYS = [
  'regime', 'n_rows', 'n_graded', 'n_groups', 'n_groups_multi', 'rollouts_per_group', 'effective_rollouts', 'support', 'tau', 'n_perm',
  'n_features', 'n_above_floor', 'features', 'top_feature', 'rho_max', 'endorsed', 'endorsed_matched', 'endorsed_on_top', 'integrity',
  'inverted', 'continuous_reward', 'degenerate', 'collinear', 'distinct_per_ask', 'warnings',
];

beforeAll(async () => {
  await buildEngine();
}, 120_000);

describe('while-desk stats hack-scan', () => {
  it('prints the SDK report with --json, on a file and on a dataset, and a readable table without', () => {
    const rows = path.join(cases, 'hack_scan_verified_word/rows.jsonl');
    const expected = JSON.parse(fs.readFileSync(path.join(cases, 'hack_scan_verified_word/expected.json'), 'utf8')).result;
    const onFile = cli(['stats', 'hack-scan', rows, '--endorsed', 'tool:lookup_order', '--json']);
    expect(onFile.code, onFile.stderr).toBe(0);
    const report = JSON.parse(onFile.stdout);
    expect(Object.keys(report)).toEqual(SDK_KEYS);
    expect(compareOutputs(expected, report)).toEqual([]);

    const imported = cli(['import', rows, '--json']);
    const id = JSON.parse(imported.stdout).dataset_id as string;
    const onDataset = cli(['stats', 'hack-scan', id, '--endorsed', 'tool:lookup_order', '--json']);
    expect(JSON.parse(onDataset.stdout)).toEqual(report);

    const readable = cli(['stats', 'hack-scan', id, '--endorsed', 'tool:lookup_order']);
    expect(readable.stdout).toMatch(/^REWARD HACK/);
    expect(readable.stdout).toMatch(/\*e tool:lookup_order/);
    expect(readable.stdout).toContain('the same rows as: contains:verified');
  });

  it('passes the keyword flags to the scan and names a bad flag', () => {
    const rows = path.join(cases, 'hack_scan_partial_credit/rows.jsonl');
    const expected = JSON.parse(fs.readFileSync(path.join(cases, 'hack_scan_partial_credit/expected.json'), 'utf8')).result;
    const out = cli(['stats', 'hack-scan', rows, '--endorsed', 'tool_calls', '--n-perm', '50', '--top-features', 'none', '--json']);
    expect(out.code, out.stderr).toBe(0);
    expect(compareOutputs(expected, JSON.parse(out.stdout))).toEqual([]);
    const small = JSON.parse(cli(['stats', 'hack-scan', rows, '--top-features', '3', '--seed', '5', '--json']).stdout);
    expect(small.features).toHaveLength(3);
    const bad = cli(['stats', 'hack-scan', rows, '--alpha', '2']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/--alpha must be strictly between 0 and 1/);
    expect(cli(['stats', 'hack-scan', rows, '--n-perm', 'many']).stderr).toMatch(/--n-perm must be a whole number/);
  });
});
