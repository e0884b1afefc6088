// --judge llm:<agent spec>: the structured verdict is untrusted; only the exact shape asked for gives a reward.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Agent, TurnRequest, TurnResult } from '../../../main/agents/agent-types';
import { createLlmJudge, readRubricFile } from '../../../main/judges/llm-judge';
import { judgePayload, JUDGE_PAYLOAD_CHARS } from '../../../main/judges/llm-payload';
import { loadJudge } from '../../../main/judges/load-judge';
import { parseLlmVerdict } from '../../../main/judges/llm-verdict';
import { startFakeOpenAiServer } from '../../fixtures/fake-openai-server.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'llm-judge-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const row = { schema_version: '1', scenario_id: 's1', prompt: 'Refund A-1', steps: [{ tool: 'refund', arguments: { id: 'A-1' }, result: { status: 'ok' } }], final_text: 'Refunded.' };

/** An in-process agent that answers with the given text (or throws, or never answers) and remembers what it was asked. */
function scriptedAgent(answer: string | Error | 'hang' | TurnResult): Agent & { seen: TurnRequest[] } {
  const seen: TurnRequest[] = [];
  return {
    modelVersion: 'judge-model',
    sampling: null,
    seen,
    async turn(request) {
      seen.push(request);
      if (answer instanceof Error) throw answer;
      if (answer === 'hang') return new Promise<TurnResult>((_resolve, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason)));
      if (typeof answer === 'object') return answer;
      return { text: answer, toolCalls: [] };
    },
    async close() {},
  };
}

async function verdictFor(answer: Parameters<typeof scriptedAgent>[0], likert = false, timeoutMs?: number) {
  return createLlmJudge({ agent: scriptedAgent(answer), rubric: 'Pass when it refunded.', likert, timeoutMs }).judge(row);
}

describe('llm judge', () => {
  it('maps pass/fail, and a Likert score 1..5 to 0..1', async () => {
    const pass = await verdictFor('<think>It called refund.</think>{"reason": "refunded as asked", "verdict": "pass"}');
    expect(pass).toMatchObject({ reward: 1, judge_status: 'ok', judge_name: 'llm:judge-model', reason: 'refunded as asked' });
    expect(pass.judge_meta).toMatchObject({ model: 'judge-model', decision: 'pass', prompt_sha: expect.stringMatching(/^[0-9a-f]{12}$/) });
    expect(await verdictFor('```json\n{"verdict": "fail"}\n```')).toMatchObject({ reward: 0, judge_status: 'ok' });
    expect(await verdictFor('{"reason": "good", "score": 4}', true)).toMatchObject({ reward: 0.75, judge_status: 'ok', judge_meta: { rating: 4, scale: [1, 5] } });
    expect(await verdictFor('{"reason": "awful", "score": 1}', true)).toMatchObject({ reward: 0 });
  });

  it('anything but the exact shape is invalid_result: extra keys, bad enums, out-of-range scores, prose, duplicates, tool calls', async () => {
    for (const [answer, likert] of [
      ['{"verdict": "pass", "confidence": 0.9}', false],
      ['{"verdict": "PASS"}', false],
      ['{"verdict": true}', false],
      ['{"score": 1}', false],
      ['I think it passed.', false],
      ['{"verdict": "pass", "verdict": "fail"}', false],
      ['{"score": 7}', true],
      ['{"score": 3.5}', true],
      ['{"score": "4"}', true],
      ['{"verdict": "pass"', false],
    ] as const) {
      const verdict = await verdictFor(answer, likert);
      expect(verdict, answer).toMatchObject({ reward: null, judge_status: 'invalid_result' });
      expect(verdict.judge_meta?.problem, answer).toBeTruthy();
    }
    expect(await verdictFor({ text: '', toolCalls: [{ id: 'c', name: 'x', arguments: {} }] })).toMatchObject({ reward: null, judge_status: 'invalid_result' });
  });

  it('an agent failure is error and a slow one timeout, with the request cancelled', async () => {
    expect(await verdictFor(new Error('connection refused'))).toMatchObject({ reward: null, judge_status: 'error', judge_meta: { error: 'Error: connection refused' } });
    const agent = scriptedAgent('hang');
    const verdict = await createLlmJudge({ agent, timeoutMs: 40 }).judge(row);
    expect(verdict).toMatchObject({ reward: null, judge_status: 'timeout' });
    expect(agent.seen[0].signal.aborted).toBe(true);
  });

  it('shows the judge the rubric and a capped JSON record of the row', async () => {
    const agent = scriptedAgent('{"verdict": "pass"}');
    await createLlmJudge({ agent, rubric: 'RUBRIC-MARK: must refund' }).judge({ ...row, privileged: { reference: 'refund A-1' } });
    const [system, user] = agent.seen[0].messages;
    expect(system.content).toContain('RUBRIC-MARK: must refund');
    expect(JSON.parse(user.content as string)).toMatchObject({ tools_called: ['refund'], situation: 'Refund A-1', final_text: 'Refunded.', judge_only: { reference: 'refund A-1' } });
    const huge = { ...row, steps: Array.from({ length: 200 }, (_, i) => ({ tool: 't', arguments: { i }, result: 'x'.repeat(2000) })) };
    const payload = judgePayload(huge);
    expect(payload.length).toBeLessThanOrEqual(JUDGE_PAYLOAD_CHARS);
    expect(JSON.parse(payload).payload_reduced).toBe(true);
    const rowRubric = scriptedAgent('{"verdict": "fail"}');
    await createLlmJudge({ agent: rowRubric }).judge({ ...row, privileged: { rubric: 'ROW-RUBRIC' } });
    expect(rowRubric.seen[0].messages[0].content).toContain('ROW-RUBRIC');
  });

  it('parses only the last complete JSON object', () => {
    expect(parseLlmVerdict('{"verdict": "fail"} on reflection {"reason": "a } in text", "verdict": "pass"}', false)).toEqual({ ok: true, value: { reason: 'a } in text', verdict: 'pass' } });
  });

  it('asks again without response_format when a server refuses it, and stops sending it', async () => {
    const server = await startFakeOpenAiServer({
      record: true,
      faultFor: (body) => (body.response_format ? { kind: 'status', status: 400, body: { error: { message: 'response_format is not supported' } } } : undefined),
      respond: () => '{"reason": "ok", "verdict": "pass"}',
    });
    try {
      const judge = await loadJudge(`llm:openai:small@${server.baseUrl}`);
      expect(await judge.judge(row)).toMatchObject({ reward: 1, judge_status: 'ok' });
      expect(await judge.judge(row)).toMatchObject({ reward: 1, judge_status: 'ok' });
      expect(server.stats.bodies.map((body) => body.response_format === undefined)).toEqual([false, true, true]);
      await judge.close?.();
    } finally {
      await server.close();
    }
  });

  it('runs through loadJudge with an OpenAI-compatible server, a JSON rubric asking for Likert', async () => {
    const server = await startFakeOpenAiServer({ record: true, respond: () => '{"reason": "mostly right", "score": 3}' });
    try {
      const rubricFile = path.join(dir, 'rubric.json');
      fs.writeFileSync(rubricFile, JSON.stringify({ rubric: 'Refund only after lookup.', scale: 'likert' }));
      expect(readRubricFile(rubricFile)).toEqual({ rubric: 'Refund only after lookup.', likert: true });
      const judge = await loadJudge(`llm:openai:phi-4@${server.baseUrl}`, { rubricFile });
      const verdict = await judge.judge(row);
      await judge.close?.();
      expect(verdict).toMatchObject({ reward: 0.5, judge_status: 'ok', judge_name: 'llm:phi-4', reason: 'mostly right' });
      expect(server.stats.bodies[0]).toMatchObject({ model: 'phi-4', temperature: 0, max_tokens: 400 });
      expect(server.stats.bodies[0].tools).toBeUndefined();
      expect(server.stats.bodies[0].response_format).toMatchObject({ type: 'json_schema', json_schema: { name: 'likert_verdict', strict: true } });
      fs.writeFileSync(path.join(dir, 'empty.md'), '  ');
      await expect(loadJudge(`llm:openai:phi-4@${server.baseUrl}`, { rubricFile: path.join(dir, 'empty.md') })).rejects.toThrow(/rubric .*empty\.md is empty/);
      await expect(loadJudge('llm:')).rejects.toThrow(/needs an agent spec/);
    } finally {
      await server.close();
    }
  });
});
