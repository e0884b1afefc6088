// Rubric and Likert judges (main/judges/rubric-judge.ts, likert-judge.ts): a model's reply is untrusted; the
// verdict, markers and ratings follow the SDK; the seeded stand-in is deterministic; specs parse as documented.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Agent, TurnRequest, TurnResult } from '../../../main/agents/agent-types';
import { createLikertJudge } from '../../../main/judges/likert-judge';
import { loadJudge } from '../../../main/judges/load-judge';
import { createRubricJudge } from '../../../main/judges/rubric-judge';
import { rubricFromDict } from '../../../shared/judging/rubric';
import { judgeFromSpec, specNamesAgent } from '../../../shared/schema/agent-spec';
import { judgeLabel } from '../../../shared/schema/run-settings';
import { startFakeOpenAiServer } from '../../fixtures/fake-openai-server.mjs';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rubric-judge-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const row = { schema_version: '1', scenario_id: 's1', prompt: 'Where is A-1?', steps: [{ tool: 'get_order', arguments: { id: 'A-1' }, result: { status: 'shipped' } }], final_text: 'It shipped.' };
const criteria = [
  { title: 'Looked up the order', kind: 'hard' },
  { title: 'States the status', weight: 2 },
  { title: 'Offers next steps' },
  { title: 'Invented order data', kind: 'pitfall' },
];
const rubric = rubricFromDict(criteria);

function scripted(answer: string | Error | 'hang'): Agent & { seen: TurnRequest[] } {
  const seen: TurnRequest[] = [];
  return {
    modelVersion: 'judge-model',
    sampling: null,
    seen,
    async turn(request): Promise<TurnResult> {
      seen.push(request);
      if (answer instanceof Error) throw answer;
      if (answer === 'hang') return new Promise((_r, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason)));
      return { text: answer, toolCalls: [] };
    },
    async close() {},
  };
}

describe('rubric judge', () => {
  it('scores item by item: reward, markers rubric:<slug>, the breakdown and the rubric version in judge_meta', async () => {
    const agent = scripted('{"criteria": {"1": true, "2": true, "3": false, "4": false}, "reason": "looked up, no next steps"}');
    const judge = createRubricJudge({ agent, rubric });
    const verdict = await judge.judge(row);
    expect(verdict).toMatchObject({ reward: 0.6667, judge_status: 'ok', reason: 'looked up, no next steps' });
    expect(verdict.markers).toEqual({ 'rubric:looked_up_the_order': 1, 'rubric:states_the_status': 1, 'rubric:offers_next_steps': 0, 'rubric:invented_order_data': 1 });
    expect(verdict.judge_meta).toMatchObject({ missed: ['Offers next steps'], hard_failed: [], n_unanswered: 0, model: 'judge-model', rubric_version: expect.stringMatching(/^[0-9a-f]{12}$/) });
    expect(judge.name).toMatch(/^judge-model@[0-9a-f]{12}$/);
    const [system, user] = agent.seen[0].messages;
    expect(system.content).toMatch(/tools_called/);
    const shown = JSON.parse(user.content as string);
    expect(shown.rubric.split('\n')[0]).toBe('1. [Hard rule, weight 1] Looked up the order');
    expect(shown.reply).toMatchObject({ tools_called: ['get_order'], final_text: 'It shipped.' });
  });

  it('a missed hard rule is 0; a reply with no criteria, a failing model, a slow one: no reward, never invented', async () => {
    expect((await createRubricJudge({ agent: scripted('{"criteria": {"1": false, "2": true}}'), rubric }).judge(row)).reward).toBe(0);
    const prose = await createRubricJudge({ agent: scripted('It looks fine to me.'), rubric }).judge(row);
    expect(prose).toMatchObject({ reward: null, judge_status: 'invalid_result', reason: expect.stringMatching(/no criteria/) });
    expect(await createRubricJudge({ agent: scripted(new Error('refused')), rubric }).judge(row)).toMatchObject({ reward: null, judge_status: 'error' });
    const slow = scripted('hang');
    expect(await createRubricJudge({ agent: slow, rubric, timeoutMs: 30 }).judge(row)).toMatchObject({ reward: null, judge_status: 'timeout', judge_meta: { timeout_s: 0.03 } });
    expect(slow.seen[0].signal.aborted).toBe(true);
  });

  it('without a fixed rubric reads each row\'s privileged.rubric; a row without one stays ungraded', async () => {
    const judge = createRubricJudge({ agent: scripted('{"criteria": {"1": true, "2": "yes", "3": "no"}}'), rubric: null });
    const withOwn = await judge.judge({ ...row, privileged: { rubric: { criteria: [{ title: 'a' }, { title: 'b' }, { title: 'c' }] } } });
    expect(withOwn).toMatchObject({ reward: 0.6667, markers: { 'rubric:a': 1, 'rubric:b': 1, 'rubric:c': 0 } });
    expect(await judge.judge(row)).toMatchObject({ reward: null, judge_status: 'invalid_result', reason: 'no rubric on the row' });
  });

  it('runs through loadJudge on an OpenAI-compatible server with the rubric file, a strict schema, temperature 0', async () => {
    const server = await startFakeOpenAiServer({ record: true, respond: () => '{"criteria": {"1": true, "2": true, "3": true, "4": true}, "reason": "but invented a date"}' });
    try {
      const file = path.join(dir, 'rubric.json');
      fs.writeFileSync(file, JSON.stringify({ criteria }));
      const judge = await loadJudge(`rubric:${file}@openai:grader@${server.baseUrl}`);
      const verdict = await judge.judge(row);
      await judge.close();
      expect(verdict).toMatchObject({ reward: 0.6667, judge_status: 'ok', markers: { 'rubric:invented_order_data': 0 } });
      expect(server.stats.bodies[0]).toMatchObject({ model: 'grader', temperature: 0, max_tokens: 400, response_format: { type: 'json_schema', json_schema: { name: 'rubric_verdict', strict: true } } });
      expect(server.stats.bodies[0].response_format.json_schema.schema.properties.criteria.required).toEqual(['1', '2', '3', '4']);
      fs.writeFileSync(path.join(dir, 'dup.json'), JSON.stringify([{ title: 'Polite' }, { title: 'polite!' }]));
      await expect(loadJudge(`rubric:${path.join(dir, 'dup.json')}`)).rejects.toThrow(/dup\.json: two criteria share the slug 'polite'/);
      await expect(loadJudge(`rubric:${path.join(dir, 'missing.json')}`)).rejects.toThrow(/could not read rubric/);
    } finally {
      await server.close();
    }
  });

  it('the seeded stand-in answers every item, the same way every time', async () => {
    const file = path.join(dir, 'rubric.json');
    const one = await loadJudge(`rubric:${file}`);
    const a = await one.judge(row);
    const b = await one.judge(row);
    expect(a).toEqual(b);
    expect(a.judge_status).toBe('ok');
    expect(Object.keys(a.markers ?? {})).toHaveLength(4);
    expect(a.judge_meta?.model).toBe('seeded');
  });
});

describe('likert judge', () => {
  it('maps a rating on lo..hi to (r - lo)/(hi - lo) and keeps the rating; a model cannot add other keys', async () => {
    const judge = createLikertJudge({ agent: scripted('{"reason": "good", "rating": 4, "markers": {"x": 1}, "judge_meta": {"model": "forged"}}'), scale: [1, 5] });
    const verdict = await judge.judge(row);
    expect(verdict).toMatchObject({ reward: 0.75, judge_status: 'ok', reason: 'good', judge_meta: { rating: 4, scale: [1, 5], model: 'judge-model' } });
    expect(verdict.markers).toBeUndefined();
    const ten = await createLikertJudge({ agent: scripted('{"score": 7}'), scale: [0, 10] }).judge(row);
    expect(ten).toMatchObject({ reward: 0.7, judge_meta: { rating: 7, scale: [0, 10] } });
  });

  it('out of scale, a word, a boolean, no JSON: invalid_result with the scale; no rating: missing_reward', async () => {
    for (const [reply, status] of [['{"rating": 9}', 'invalid_result'], ['{"rating": "four"}', 'invalid_result'], ['{"rating": true}', 'invalid_result'], ['four', 'invalid_result'], ['{"reason": "x"}', 'missing_reward']] as const) {
      const verdict = await createLikertJudge({ agent: scripted(reply), scale: [1, 5] }).judge(row);
      expect(verdict, reply).toMatchObject({ reward: null, judge_status: status });
    }
    expect(() => createLikertJudge({ agent: scripted('{}'), scale: [5, 1] })).toThrow(/hi > lo/);
  });

  it('asks an OpenAI-compatible server for an integer on the scale; the seeded stand-in rates within it', async () => {
    const server = await startFakeOpenAiServer({ record: true, respond: () => '{"reason": "ok", "rating": 2}' });
    try {
      const judge = await loadJudge(`likert:openai:rater@${server.baseUrl}@1-3`);
      expect(await judge.judge(row)).toMatchObject({ reward: 0.5, judge_meta: { rating: 2, scale: [1, 3] } });
      await judge.close();
      expect(server.stats.bodies[0].response_format.json_schema.schema.properties.rating).toEqual({ type: 'integer', enum: [1, 2, 3] });
    } finally {
      await server.close();
    }
    const seeded = await loadJudge('likert:1-7');
    const verdict = await seeded.judge(row);
    expect(verdict.judge_status).toBe('ok');
    expect(verdict.judge_meta?.rating).toBeGreaterThanOrEqual(1);
    expect(verdict.judge_meta?.rating).toBeLessThanOrEqual(7);
  });
});

describe('rubric: and likert: specs', () => {
  it('reads the agent inline, from --judge-agent, or falls back to seeded; the scale from @LO-HI', () => {
    expect(judgeFromSpec('likert:openai:m@http://127.0.0.1:9/v1@0-10')).toMatchObject({ kind: 'likert', scale: [0, 10], agent: { kind: 'openai', model: 'm', base_url: 'http://127.0.0.1:9/v1' } });
    expect(judgeFromSpec('likert:2-4', { judge_agent: 'llama:/m/x.gguf' })).toMatchObject({ scale: [2, 4], agent: { kind: 'llama', model_path: '/m/x.gguf' } });
    expect(judgeFromSpec('likert:seeded')).toMatchObject({ scale: [1, 5], agent: { kind: 'seeded' } });
    expect(judgeFromSpec('rubric:r.json')).toMatchObject({ kind: 'rubric', rubric_path: 'r.json', agent: { kind: 'seeded' } });
    expect(judgeFromSpec('rubric:row@openai:m@http://127.0.0.1:9/v1')).toMatchObject({ rubric_path: null, agent: { kind: 'openai' } });
    expect(judgeFromSpec('rubric:dir/r.json@seeded', { judge_agent: 'openai:x@http://h/v1' })).toMatchObject({ rubric_path: 'dir/r.json', agent: { kind: 'seeded' } });
    expect(specNamesAgent('likert:1-5')).toBe(false);
    expect(specNamesAgent('likert:seeded@1-5')).toBe(true);
    expect(specNamesAgent('rubric:r.json')).toBe(false);
    expect(judgeLabel(judgeFromSpec('likert:seeded@1-3'))).toBe('likert:seeded@1-3');
    expect(() => judgeFromSpec('likert:5-1')).toThrow(/HI above LO/);
    expect(() => judgeFromSpec('rubric:r.md')).toThrow(/JSON file/);
    expect(() => judgeFromSpec('rubric:r.json', { rubric_path: 'x.md' })).toThrow(/not with --rubric/);
    expect(() => judgeFromSpec('likert:nonsense@1-5')).toThrow(/the judge's agent: unknown agent spec/);
  });
});
