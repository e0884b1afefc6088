// Module judges are user code: whatever one does (loops, exits, leaks, floods memory, pollutes prototypes), each
// row ends in bounded time with reward null and a status, and the engine's thread carries on.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadJudge } from '../../../main/judges/load-judge';
import { MAX_FAILURES_IN_A_ROW } from '../../../main/judges/judge-pool';
import type { RowJudge } from '../../../main/judges/judge-types';
import { buildEngine } from '../../helpers/build-engine';

beforeAll(buildEngine, 120_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostile-judge-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let counter = 0;
function judgeFile(source: string): string {
  const file = path.join(dir, `hostile-${counter++}.mjs`);
  fs.writeFileSync(file, source);
  return file;
}

const rows = (n: number, text = 'fine') => Array.from({ length: n }, (_, i) => ({ scenario_id: `s${i}`, final_text: i === 1 ? text : 'fine' }));

async function withJudge<T>(source: string, work: (judge: RowJudge) => Promise<T>, timeoutMs = 400): Promise<T> {
  const judge = await loadJudge(judgeFile(source), { timeoutMs, workers: 1 });
  try {
    return await work(judge);
  } finally {
    await judge.close();
  }
}

/** The engine's own thread stays responsive while the judge misbehaves: a 10 ms timer keeps firing. */
function heartbeat() {
  let beats = 0;
  const timer = setInterval(() => beats++, 10);
  return { stop: () => (clearInterval(timer), beats) };
}

describe('hostile module judges', () => {
  it('an endless synchronous loop on one row: that row times out, the others are judged, the engine never stalls', async () => {
    const beat = heartbeat();
    const started = Date.now();
    const verdicts = await withJudge('export default (row) => { if (row.final_text === "loop") for (;;) {} return 1; }', (judge) => judge.judgeBatch(rows(5, 'loop')));
    const beats = beat.stop();
    expect(verdicts.map((v) => v.judge_status)).toEqual(['ok', 'timeout', 'ok', 'ok', 'ok']);
    expect(verdicts[1]).toMatchObject({ reward: null, judge_meta: { timeout_s: 0.4 } });
    expect(verdicts.filter((v) => v.reward === 1)).toHaveLength(4);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(beats).toBeGreaterThan(10);
  });

  it('a judge that loops on every row is given up on after a few rows, so the batch still ends quickly', async () => {
    const started = Date.now();
    const verdicts = await withJudge('export default () => { for (;;) {} }', (judge) => judge.judgeBatch(rows(40)), 200);
    expect(verdicts.every((v) => v.reward === null && v.judge_status === 'timeout')).toBe(true);
    // at most MAX_FAILURES_IN_A_ROW rows were really sent (the first chunk's death is not pinned on a row: its rows go again one by one)
    const tried = verdicts.filter((v) => v.judge_meta?.skipped === undefined).length;
    expect(tried).toBeGreaterThanOrEqual(MAX_FAILURES_IN_A_ROW - 1);
    expect(tried).toBeLessThanOrEqual(MAX_FAILURES_IN_A_ROW);
    expect(Date.now() - started).toBeLessThan((MAX_FAILURES_IN_A_ROW + 1) * 200 + 10_000);
  });

  it('process.exit on a row crashes that row only; a fresh process judges the rest', async () => {
    const verdicts = await withJudge('export default (row) => { if (row.final_text === "exit") process.exit(7); return 0.5; }', (judge) => judge.judgeBatch(rows(4, 'exit')));
    expect(verdicts.map((v) => v.judge_status)).toEqual(['ok', 'crashed', 'ok', 'ok']);
    expect(verdicts[1]).toMatchObject({ reward: null, judge_meta: { error: expect.stringContaining('process.exit(7)') } });
  });

  it('process.abort and killing its own process cost the row, not the engine', async () => {
    const verdicts = await withJudge('export default (row) => { if (row.scenario_id === "s1") process.abort(); if (row.scenario_id === "s3") process.kill(process.pid, "SIGKILL"); return 1; }', (judge) => judge.judgeBatch(rows(5)));
    expect(verdicts.map((v) => v.judge_status)).toEqual(['ok', 'crashed', 'ok', 'crashed', 'ok']);
    expect(verdicts[1].judge_meta?.error).toMatch(/SIGABRT/);
    expect(verdicts[3].judge_meta?.error).toMatch(/SIGKILL/);
  });

  it('an unhandled rejection is charged to the row that left it', async () => {
    const verdicts = await withJudge('export default async (row) => { if (row.final_text === "reject") Promise.reject(new Error("nobody listens")); return 1; }', (judge) => judge.judgeBatch(rows(3, 'reject')));
    expect(verdicts.map((v) => v.judge_status)).toEqual(['ok', 'error', 'ok']);
    expect(verdicts[1]).toMatchObject({ reward: null, judge_meta: { error: 'unhandled rejection: Error: nobody listens' } });
  });

  it('a memory bomb ends its process with crashed (the heap limit), not the engine', async () => {
    // big allocations too: in a worker thread these end V8 for the whole process; in a process of its own, just the judge
    const judge = await loadJudge(judgeFile('export default (row) => { if (row.final_text !== "bomb") return 1; const hoard = []; for (;;) { hoard.push(new Array(1e5).fill(Math.random())); hoard.push(new Array(4e6).fill(0.5)); } }'), { timeoutMs: 20_000, heapMb: 64, workers: 1 });
    try {
      const verdicts = await judge.judgeBatch(rows(3, 'bomb'));
      expect(verdicts.map((v) => v.judge_status)).toEqual(['ok', 'crashed', 'ok']);
      expect(verdicts[1].judge_meta?.error).toMatch(/out of memory \(heap limit 64 MiB\)/);
    } finally {
      await judge.close();
    }
  });

  it('Object.prototype.reward set by the judge is never read as a reward', async () => {
    const verdicts = await withJudge('export default (row) => { if (row.final_text === "pollute") { Object.prototype.reward = 1; return {}; } return {}; }', (judge) => judge.judgeBatch(rows(3, 'pollute')));
    expect(verdicts.map((v) => v.reward)).toEqual([null, null, null]);
    expect(verdicts[1]).toMatchObject({ judge_status: 'invalid_result', judge_meta: { prototype_polluted: ['reward'] } });
    // the spoilt process was replaced: the next row's {} is just a missing reward
    expect(verdicts.map((v) => v.judge_status)).toEqual(['missing_reward', 'invalid_result', 'missing_reward']);
  });

  it('a class instance or a getter-laden object is not a verdict; only own plain keys count', async () => {
    const verdicts = await withJudge('class V { constructor() { this.reward = 1; } } export default (row) => row.final_text === "class" ? new V() : Object.create({ reward: 1 });', (judge) => judge.judgeBatch(rows(2, 'class')));
    expect(verdicts[0]).toMatchObject({ reward: null, judge_status: 'invalid_result' });
    expect(verdicts[1]).toMatchObject({ reward: null, judge_status: 'invalid_result', judge_meta: { returned_type: 'object (V)' } });
  });

  it('a leftover setInterval neither stalls the judge nor keeps the process alive after close', async () => {
    const verdicts = await withJudge('setInterval(() => {}, 5); export default () => { setInterval(() => {}, 1); return 1; }', (judge) => judge.judgeBatch(rows(3)));
    expect(verdicts.map((v) => v.reward)).toEqual([1, 1, 1]);
  });

  it('refuses up front: missing file, syntax error with line:column, throw at load, process.exit at load, no default export, endless load', async () => {
    await expect(loadJudge(path.join(dir, 'nope.mjs'))).rejects.toThrow(/judge file .*nope\.mjs does not exist/);
    await expect(loadJudge(judgeFile('export default function (row) {\n  return (1 +;\n}\n'))).rejects.toThrow(/hostile-\d+\.mjs:2:14 has a syntax error: Unexpected token ';'/);
    await expect(loadJudge(judgeFile('const x = 1;\nthrow new Error("no config");\nexport default () => 1;\n'))).rejects.toThrow(/could not load judge .*: Error: no config \(at .*hostile-\d+\.mjs:2:7\)/);
    await expect(loadJudge(judgeFile('process.exit(3);\nexport default () => 1;\n'))).rejects.toThrow(/ended its process \(process\.exit\(3\)\) while loading/);
    await expect(loadJudge(judgeFile('export const judge_fn = () => 1;'))).rejects.toThrow(/must export a default function/);
    await expect(loadJudge(judgeFile('for (;;) {}\nexport default () => 1;'), { loadTimeoutMs: 500 })).rejects.toThrow(/did not finish loading within 0\.5 s/);
  });
});
