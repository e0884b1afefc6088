// while-desk grade: grades an imported dataset into a new 'graded' dataset that records its parent (sdk-semantics §5.2).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../main/cli/index';
import { importFile } from '../../main/cli/import-file';
import { findDataset } from '../../main/db/repos/datasets';
import { readDatasetRows as loadRows } from '../../main/rows/index';
import { createEngine } from '../../main/engine/engine';
import { buildEngine } from '../helpers/build-engine';

beforeAll(buildEngine, 120_000);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'grade-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const dbPath = path.join(dir, 'desk.db');

function rowLine(i: number, finalText: string, extra: Record<string, unknown> = {}) {
  return JSON.stringify({ schema_version: '1', scenario_id: `s${i}`, rollout_index: 0, prompt: `Refund A-${i}`, steps: [{ tool: 'refund', arguments: { id: `A-${i}` }, result: { status: 'ok' } }], final_text: finalText, ...extra });
}

async function cli(...args: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(args, { out: (text) => void (out += text), err: (text) => void (err += text), isTty: false });
  return { code, out, err };
}

async function withDb<T>(work: (engine: ReturnType<typeof createEngine>) => T | Promise<T>): Promise<T> {
  const engine = createEngine({ dbPath });
  try {
    return await work(engine);
  } finally {
    await engine.close();
  }
}

describe('while-desk grade', () => {
  it('grades rows into a new dataset with verdicts and lineage, leaving the source untouched', async () => {
    const rowsFile = path.join(dir, 'rows.jsonl');
    fs.writeFileSync(rowsFile, [rowLine(1, 'Refunded A-1.', { markers: { polite: 1 } }), rowLine(2, 'Sorry, I cannot.'), rowLine(3, 'CRASH'), rowLine(4, 'Refunded A-4.', { reason: 'old reason' })].join('\n') + '\n');
    const imported = await withDb((engine) => importFile(engine, rowsFile, { name: 'refunds', skipInvalid: false }));
    const sourceId = imported.dataset_id as string;
    expect(sourceId).toBeTruthy();
    const judgeFile = path.join(dir, 'refund-judge.mjs');
    fs.writeFileSync(judgeFile, `export default function refund_judge(row) {
      if (row.final_text === 'CRASH') throw new Error('cannot grade ' + row.scenario_id);
      const ok = row.final_text.startsWith('Refunded');
      return { reward: ok ? 1 : 0, reason: row.scenario_id === 's4' ? '' : (ok ? 'refunded' : 'refused'), markers: { refunded: ok ? 1 : 0 } };
    }\n`);

    const result = await cli('grade', sourceId, '--judge', judgeFile, '--concurrency', '2', '--db', dbPath, '--json');
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    const summary = JSON.parse(result.out);
    expect(summary).toMatchObject({ parent_id: sourceId, judge_name: 'refund_judge', rows: 4, graded: 3, judge_status_counts: { ok: 3, error: 1, timeout: 0, crashed: 0 }, mean_reward: 0.666667, all_failed: false });
    expect(summary.scoring_run_id).toMatch(/^score_[0-9a-f]{12}$/);

    await withDb(({ ctx }) => {
      const graded = findDataset(ctx.db, summary.dataset_id);
      expect(graded).toMatchObject({ kind: 'graded', parent_id: sourceId, status: 'ready', rows: 4, source: judgeFile });
      const rows = loadRows(ctx.db, summary.dataset_id);
      expect(rows.map((row) => row.reward)).toEqual([1, 0, null, 1]);
      expect(rows.map((row) => row.judge_status)).toEqual(['ok', 'ok', 'error', 'ok']);
      expect(rows[0]).toMatchObject({ judge_name: 'refund_judge', reason: 'refunded', markers: { polite: 1, refunded: 1 } });
      // Stamped at grading time beside the row's and the judge's own markers (docs/markers.md), with the trace evidence.
      expect(rows[0].markers).toMatchObject({ no_hedging: 1, no_apology: 1, answered: 1, honest_claims: 1, argument_grounding: 1 });
      expect(rows[0].trace_flags).toEqual({});
      expect(rows[0].lineage).toEqual({ scoring_run_id: summary.scoring_run_id, source: 'grade', judge: 'refund_judge', parent: 's1' });
      expect(rows[2]).toMatchObject({ reward: null, judge_meta: { error: 'Error: cannot grade s3' } });
      expect(rows[3].reason).toBe('old reason');
      const reward = ctx.db.prepare('SELECT reward FROM rows WHERE dataset_id = ? ORDER BY ordinal').pluck().all(summary.dataset_id);
      expect(reward).toEqual([1, 0, null, 1]);
      const source = loadRows(ctx.db, sourceId);
      expect(source.every((row) => row.reward === undefined && row.judge_status === undefined)).toBe(true);
    });

    const rulesFile = path.join(dir, 'polite.json');
    fs.writeFileSync(rulesFile, JSON.stringify({ name: 'no_apology', rule: { not: { contains: 'sorry' } } }));
    const again = await cli('grade', summary.dataset_id, '--judge', rulesFile, '--name', 'regraded', '--db', dbPath);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/^graded 4 rows of .* into dataset ds-[0-9a-f]+ \(judge no_apology\)\nmean reward 0\.75 over 4 scored rows\njudge trust \(0 rows with gold and a verdict\): Not measured: [^\n]*\n$/);
    const newId = again.out.match(/into dataset (\S+)/)![1];
    await withDb(({ ctx }) => {
      expect(findDataset(ctx.db, newId)).toMatchObject({ name: 'regraded', parent_id: summary.dataset_id });
      const rows = loadRows(ctx.db, newId);
      expect((rows[1].lineage as Record<string, unknown>).prior_scoring_run_id).toBe(summary.scoring_run_id);
      expect(rows[1]).toMatchObject({ reward: 0, judge_name: 'no_apology', reason: 'not (final_text contains "sorry")' });
    });
  });

  it('refuses an unknown dataset, a missing --judge and a bad rules file with clear messages', async () => {
    const judgeFile = path.join(dir, 'any.mjs');
    fs.writeFileSync(judgeFile, 'export default () => 1;\n');
    const missing = await cli('grade', 'ds-nope', '--judge', judgeFile, '--db', dbPath);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/no dataset or run with id "ds-nope"/);
    const noJudge = await cli('grade', 'ds-nope', '--db', dbPath);
    expect(noJudge.code).toBe(2);
    expect(noJudge.err).toMatch(/--judge is required/);
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(bad, JSON.stringify({ rule: { regex: '[' } }));
    const refused = await cli('grade', 'ds-nope', '--judge', bad, '--db', dbPath);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/bad\.json: rule\.regex: not a valid regular expression/);
  });
});
