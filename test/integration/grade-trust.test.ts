// Every grade ends with the trust check (sdk-semantics §5.2, stats-semantics §13.1): judge_trust over the graded
// rows that carry gold, in grade.wait's summary, printed by `while-desk grade`, and stamped on every graded row as
// judge_meta.trust. Rows with no gold say "not measured".
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../main/cli/index';
import { importFile } from '../../main/cli/import-file';
import { createEngine } from '../../main/engine/engine';
import { readDatasetRows } from '../../main/rows/index';
import { judgeTrust } from '../../shared/stats/judge-trust';
import { buildEngine } from '../helpers/build-engine';

beforeAll(buildEngine, 120_000);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grade-trust-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const dbPath = path.join(dir, 'desk.db');
const N = 40;
// Half the replies refund (the judge passes them), half refuse; replies of one length, so no length bias.
const passes = (i: number) => i % 2 === 0;

async function cli(...args: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(args, { out: (text) => void (out += text), err: (text) => void (err += text), isTty: false });
  return { code, out, err };
}

async function importRows(name: string): Promise<string> {
  const file = path.join(dir, `${name}.jsonl`);
  const lines = Array.from({ length: N }, (_, i) =>
    JSON.stringify({ schema_version: '1', scenario_id: `s${i}`, rollout_index: 0, prompt: `Refund A-${i}`, steps: [], final_text: passes(i) ? 'Refunded it.' : 'I cannot do.' }),
  );
  fs.writeFileSync(file, lines.join('\n') + '\n');
  const engine = createEngine({ dbPath });
  try {
    return (await importFile(engine, file, { name, skipInvalid: false })).dataset_id as string;
  } finally {
    await engine.close();
  }
}

async function gradedRows(datasetId: string) {
  const engine = createEngine({ dbPath });
  try {
    return readDatasetRows(engine.ctx.db, datasetId) as Array<Record<string, unknown>>;
  } finally {
    await engine.close();
  }
}

const judgeFile = path.join(dir, 'refund-judge.mjs');
fs.writeFileSync(judgeFile, `export default function refund_judge(row) { return row.final_text.startsWith('Refunded') ? 1 : 0; }\n`);

describe('the trust check at the end of every grade', () => {
  it('measures trust on a dataset with gold labels, prints it, and stamps it on the graded rows', async () => {
    const sourceId = await importRows('labeled');
    // A person's labels: the judge is right on all but two rows (agreement 38/40).
    const labels = Object.fromEntries(Array.from({ length: N }, (_, i) => [`s${i}#0`, i < 2 ? (passes(i) ? 0 : 1) : passes(i) ? 1 : 0]));
    const labelFile = path.join(dir, 'labels.json');
    fs.writeFileSync(labelFile, JSON.stringify(labels));
    const imported = await cli('labels', 'import', labelFile, '--dataset', sourceId, '--annotator', 'ann', '--db', dbPath);
    expect(imported.code, imported.err).toBe(0);

    const json = await cli('grade', sourceId, '--judge', judgeFile, '--db', dbPath, '--json');
    expect(json.code, json.err).toBe(0);
    const summary = JSON.parse(json.out);
    expect(summary.trust).toMatchObject({ n_gold: N, n_labeled: N, gold_kind: 'human', agreement: 0.95, floors: { min_agreement: 0.8, min_kappa: 0.6 } });
    expect(summary.trust.verdict).not.toBe('not measured');

    // The numbers are the statistics core's over the same graded rows, and every row carries them.
    const rows = await gradedRows(summary.dataset_id);
    const core = await judgeTrust(rows, {});
    expect(summary.trust.ok).toBe(core.ok);
    expect(summary.trust.kappa).toBe((core.agreement as { kappa: number }).kappa);
    expect(summary.trust.ci95).toEqual((core.agreement as { ci95: number[] }).ci95);
    expect(summary.trust.verdict).toBe(core.ok ? 'trusted' : expect.any(String));
    expect(rows).toHaveLength(N);
    for (const row of rows) expect((row.judge_meta as { trust: unknown }).trust).toEqual(summary.trust);

    // grade.wait read back later (another process) gives the same check.
    const engine = createEngine({ dbPath });
    try {
      expect((await engine.call('grade.wait', { grade_id: summary.dataset_id })).trust).toEqual(summary.trust);
    } finally {
      await engine.close();
    }

    const text = await cli('grade', sourceId, '--judge', judgeFile, '--db', dbPath);
    expect(text.code).toBe(0);
    expect(text.out).toContain(`judge trust (${N} rows with gold and a verdict): ${summary.trust.line}`);
    expect(text.out).toMatch(/80\.0% floor/);
  }, 120_000);

  it('says "not measured" when no graded row carries gold', async () => {
    const sourceId = await importRows('unlabeled');
    const json = await cli('grade', sourceId, '--judge', judgeFile, '--db', dbPath, '--json');
    expect(json.code, json.err).toBe(0);
    const summary = JSON.parse(json.out);
    expect(summary.trust).toMatchObject({ ok: false, verdict: 'not measured', n_gold: 0, n_labeled: 0 });
    const rows = await gradedRows(summary.dataset_id);
    for (const row of rows) expect((row.judge_meta as { trust: { verdict: string } }).trust.verdict).toBe('not measured');
    const text = await cli('grade', sourceId, '--judge', judgeFile, '--db', dbPath);
    expect(text.out).toContain('judge trust (0 rows with gold and a verdict): Not measured');
  }, 120_000);
});
