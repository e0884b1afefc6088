// A marker as compare's --by and as delta_report's slice key (issue 28 item 2): a row's group is row[by], else
// markers[by], so stamped or judge markers slice a comparison with no extra column. Through the CLI process.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildEngine, repoRoot } from '../helpers/build-engine';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wd-compare-marker-'));
const db = path.join(dir, 'desk.sqlite');

function cli(args: string[]) {
  const out = spawnSync(process.execPath, [path.join(repoRoot, 'bin/while-desk.mjs'), ...args, '--db', db], { cwd: repoRoot, encoding: 'utf8' });
  return { code: out.status, stdout: out.stdout, stderr: out.stderr };
}

/** 12 tasks x 4; the first 6 hedge (no_hedging 0). The candidate loses every hedging task and keeps the others. */
function side(file: string, candidate: boolean) {
  const lines: string[] = [];
  for (let t = 0; t < 12; t++) {
    const hedges = t < 6;
    for (let k = 0; k < 4; k++) {
      const reward = candidate && hedges ? 0 : k < 3 ? 1 : 0;
      lines.push(JSON.stringify({ prompt: `task ${t}`, scenario_id: `t${t}`, final_text: hedges ? 'It might perhaps work.' : 'Done.', reward, markers: { no_hedging: hedges ? 0 : 1 } }));
    }
  }
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

let before = '';
let after = '';
beforeAll(async () => {
  await buildEngine();
  [before, after] = [side(path.join(dir, 'before.jsonl'), false), side(path.join(dir, 'after.jsonl'), true)].map((file) => {
    const imported = cli(['import', file]);
    expect(imported.code, imported.stderr).toBe(0);
    return /dataset (\S+)/.exec(imported.stdout)![1];
  });
}, 120_000);

describe('compare --by MARKER', () => {
  it('slices the comparison by the marker: the hedging group regressed, the other did not move', () => {
    const out = cli(['compare', before, after, '--by', 'no_hedging', '--json']);
    expect(out.code, out.stderr).toBe(0);
    const report = JSON.parse(out.stdout);
    expect(report.by).toBe('no_hedging');
    expect(Object.keys(report.groups).sort()).toEqual(['0', '1']);
    expect(report.groups['0']).toMatchObject({ n_paired: 6, mean_a: 0.75, mean_b: 0 });
    expect(report.groups['0'].delta).toBeCloseTo(-0.75, 6);
    expect(report.groups['1']).toMatchObject({ n_paired: 6, mean_a: 0.75, mean_b: 0.75, delta: 0 });
  });

  it('slices stats delta by the marker the same way', () => {
    const delta = cli(['stats', 'delta', before, after, '--by', 'no_hedging', '--json']);
    expect(delta.code, delta.stderr).toBe(0);
    const compared = JSON.parse(cli(['compare', before, after, '--by', 'no_hedging', '--json']).stdout);
    expect(JSON.parse(delta.stdout).groups).toEqual(compared.groups);
  });
});
