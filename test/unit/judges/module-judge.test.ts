// --judge FILE.mjs: every way a judge module can answer, and the status each one gets (sdk-semantics §5.1).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadJudge } from '../../../main/judges/load-judge';
import { normalizeJudgeResult } from '../../../main/judges/normalize-verdict';
import { buildEngine } from '../../helpers/build-engine';

// Module judges run in out/engine/judge-worker.mjs.
beforeAll(buildEngine, 120_000);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'module-judge-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let counter = 0;
function judgeFile(source: string): string {
  const file = path.join(dir, `judge-${counter++}.mjs`);
  fs.writeFileSync(file, source);
  return file;
}

const row = { schema_version: '1', prompt: 'Refund order A-1', steps: [{ tool: 'refund', arguments: { id: 'A-1' }, result: { status: 'ok' } }], final_text: 'Refunded A-1.', scenario_id: 's1' };

async function verdictOf(source: string, timeoutMs?: number) {
  const judge = await loadJudge(judgeFile(source), { timeoutMs });
  try {
    return await judge.judge(structuredClone(row));
  } finally {
    await judge.close();
  }
}

describe('module judge', () => {
  it('takes a bare number, a boolean, and {reward, reason, markers} from sync and async functions', async () => {
    expect(await verdictOf('export default function mine(row) { return row.final_text.includes("Refunded") ? 1 : 0; }')).toEqual({ reward: 1, judge_status: 'ok', judge_name: 'mine' });
    expect(await verdictOf('export default () => 0.25')).toMatchObject({ reward: 0.25, judge_status: 'ok' });
    expect(await verdictOf('export default () => false')).toMatchObject({ reward: 0, judge_status: 'ok' });
    const full = await verdictOf('export default async (row) => ({ reward: 1, reason: "called refund", markers: { tool_ok: 1 }, failure_class: "none" })');
    expect(full).toMatchObject({ reward: 1, judge_status: 'ok', reason: 'called refund', markers: { tool_ok: 1 } });
    expect(full.judge_meta).toEqual({ markers: { tool_ok: 1 }, failure_class: 'none' });
    expect(full.judge_name).toMatch(/^judge-\d+$/);
    expect(await verdictOf('export default () => ({ score: 1 })')).toMatchObject({ reward: 1, judge_status: 'ok' });
  });

  it('never invents a reward: throw, bad types, null, out of range, bad markers, timeout', async () => {
    expect(await verdictOf('export default () => { throw new TypeError("boom"); }')).toMatchObject({ reward: null, judge_status: 'error', judge_meta: { error: 'TypeError: boom' } });
    expect(await verdictOf('export default async () => { throw new Error("late"); }')).toMatchObject({ reward: null, judge_status: 'error' });
    expect(await verdictOf('export default () => "1"')).toMatchObject({ reward: null, judge_status: 'invalid_result', judge_meta: { returned_type: 'string' } });
    // sdk-semantics §5.1: nothing returned is "any other type", not a dict without a reward
    expect(await verdictOf('export default () => null')).toMatchObject({ reward: null, judge_status: 'invalid_result', judge_meta: { returned_type: 'null' } });
    expect(await verdictOf('export default () => undefined')).toMatchObject({ reward: null, judge_status: 'invalid_result', judge_meta: { returned_type: 'undefined' } });
    expect(await verdictOf('export default () => ({ verdict: "pass" })')).toMatchObject({ reward: null, judge_status: 'missing_reward', judge_meta: { returned_keys: ['verdict'] } });
    expect(await verdictOf('export default () => ({ reward: "high" })')).toMatchObject({ reward: null, judge_status: 'invalid_result', judge_meta: { reward_type: 'string' } });
    expect(await verdictOf('export default () => 1.5')).toMatchObject({ reward: null, judge_status: 'invalid_result', judge_meta: { reward_out_of_range: 1.5 } });
    expect(await verdictOf('export default () => NaN')).toMatchObject({ reward: null, judge_status: 'invalid_result' });
    expect(await verdictOf('export default () => ({ reward: 1, markers: { a: "yes" } })')).toMatchObject({ reward: null, judge_status: 'invalid_result' });
    expect(await verdictOf('export default () => new Promise(() => {})', 50)).toMatchObject({ reward: null, judge_status: 'timeout', judge_meta: { timeout_s: 0.05 } });
  });

  it('maps a Likert rating when the module exports a scale, and refuses a module without a default function', async () => {
    expect(await verdictOf('export const scale = [1, 5]; export const name = "likert"; export default () => ({ rating: 4 })')).toMatchObject({
      reward: 0.75,
      judge_status: 'ok',
      judge_name: 'likert',
      judge_meta: { rating: 4, scale: [1, 5] },
    });
    expect(await verdictOf('export const scale = [1, 5]; export default () => 9')).toMatchObject({ reward: null, judge_status: 'invalid_result', judge_meta: { rating_out_of_scale: 9 } });
    await expect(loadJudge(judgeFile('export const x = 1;'))).rejects.toThrow(/must export a default function/);
    await expect(loadJudge(path.join(dir, 'missing.mjs'))).rejects.toThrow(/does not exist/);
    await expect(loadJudge(judgeFile('export default ('))).rejects.toThrow(/judge-\d+\.mjs:1 has a syntax error: Unexpected end of input/);
  });

  it('hands the judge a copy: a judge that mutates the row changes nothing', async () => {
    const judge = await loadJudge(judgeFile('export default (row) => { row.final_text = "changed"; row.steps.length = 0; return 1; }'));
    const original = structuredClone(row);
    await judge.judge(original);
    expect(original).toEqual(row);
  });

  it('normalizes Likert results with rounding and refuses hi <= lo', () => {
    expect(normalizeJudgeResult(2, 'j', [1, 4])).toMatchObject({ reward: 0.333333 });
    expect(() => normalizeJudgeResult(1, 'j', [5, 1])).toThrow(/hi > lo/);
    expect(normalizeJudgeResult({ reward: 1, judge_meta: { version: 'v2' }, extra: 'x' }, 'j').judge_meta).toEqual({ version: 'v2', extra: 'x' });
  });
});
