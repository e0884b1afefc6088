// Rubric and Likert judges on a real local model: node-llama-cpp on the tiny random-weight GGUF, one thread. Its
// output is noise, so only what must hold whatever it writes is asserted: every row gets a verdict of a known
// status, a reward only with an ok status and within the rules, no invented markers, and the same row judged twice
// gives the same verdict (temperature 0 is not pinned for llama, but the turn seed is).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadJudge } from '../../main/judges/load-judge';
import type { JudgeVerdict } from '../../main/judges/judge-types';
import { judgeFromSpec } from '../../shared/schema/agent-spec';
import { writeTinyGguf } from '../fixtures/make-tiny-gguf.mjs';
import { buildEngine } from '../helpers/build-engine';

const gpu = (process.env.WHILE_LLAMA_TEST_GPU ?? 'cpu') as 'cpu' | 'cuda';
let dir: string;
let modelPath: string;

beforeAll(async () => {
  await buildEngine();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'llama-judges-'));
  modelPath = writeTinyGguf(path.join(dir, 'tiny.gguf')).path;
}, 120_000);
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const rows = [0, 1].map((i) => ({ schema_version: '1', scenario_id: `s${i}`, rollout_index: 0, prompt: `Where is order A-${i}?`, steps: [], final_text: 'It shipped.' }));
const STATUSES = ['ok', 'invalid_result', 'missing_reward', 'error', 'timeout'];

function checkVerdict(v: JudgeVerdict) {
  expect(STATUSES).toContain(v.judge_status);
  if (v.judge_status !== 'ok') expect(v.reward).toBeNull();
  else expect(v.reward).toBeGreaterThanOrEqual(0);
  expect(v.judge_meta?.model).toBe('llama:tiny.gguf');
}

describe('model judges on the tiny GGUF', { timeout: 180_000 }, () => {
  it('rubric judge: a verdict per row, markers only rubric:<slug> ones', async () => {
    const rubric = path.join(dir, 'rubric.json');
    fs.writeFileSync(rubric, JSON.stringify([{ title: 'Looked up the order' }, { title: 'Invented data', weight: -1 }]));
    const judge = await loadJudge(judgeFromSpec(`rubric:${rubric}@llama:${modelPath}`, { agent: { threads: 1, gpu } }), { timeoutMs: 120_000 });
    try {
      const first = await judge.judgeBatch(rows);
      for (const v of first) {
        checkVerdict(v);
        for (const key of Object.keys(v.markers ?? {})) expect(['rubric:looked_up_the_order', 'rubric:invented_data']).toContain(key);
      }
      expect(await judge.judge(rows[0])).toEqual(first[0]);
    } finally {
      await judge.close();
    }
  });

  it('Likert judge: a rating on the scale, or no reward', async () => {
    const judge = await loadJudge(judgeFromSpec(`likert:llama:${modelPath}@1-5`, { agent: { threads: 1, gpu } }), { timeoutMs: 120_000 });
    try {
      for (const v of await judge.judgeBatch(rows)) {
        checkVerdict(v);
        if (v.judge_status === 'ok') expect(v.judge_meta).toMatchObject({ scale: [1, 5], rating: expect.any(Number) });
      }
    } finally {
      await judge.close();
    }
  });
});
