// Real inference through node-llama-cpp on the tiny random-weight GGUF, in the agent's own child process;
// bad model files (truncated, not GGUF, one that makes llama.cpp abort) fail the agent, never this process.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatMessage, ToolSchema, TurnRequest } from '../../main/agents/agent-types';
import { createLlamaAgent, type LlamaAgent } from '../../main/agents/llama/llama-agent';
import { writeTinyGguf } from '../fixtures/make-tiny-gguf.mjs';
import { buildEngine } from '../helpers/build-engine';

const tools: ToolSchema[] = [
  {
    type: 'function',
    function: {
      name: 'get_weather',
      description: 'Current weather for a city',
      parameters: { type: 'object', properties: { city: { type: 'string' }, unit: { enum: ['c', 'f'] } }, required: ['city'] },
    },
  },
  { type: 'function', function: { name: 'search', parameters: { type: 'object', properties: { query: { type: 'string' } } } } },
];
const names = tools.map((tool) => tool.function.name);

/** CPU here; scripts/gpu-check.sh sets WHILE_LLAMA_TEST_GPU=cuda on a GPU machine. */
const gpu = (process.env.WHILE_LLAMA_TEST_GPU ?? 'cpu') as 'cpu' | 'auto' | 'cuda' | 'vulkan' | 'metal';
let dir: string;
let modelPath: string;
let agent: LlamaAgent | undefined;

function request(messages: ChatMessage[], turn = 0, signal = new AbortController().signal): TurnRequest {
  return { messages, tools, rollout: { scenarioId: 'weather-1', rolloutIndex: 0, evalRun: 0, seed: 7, turn }, signal };
}

beforeAll(async () => {
  await buildEngine();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'while-llama-'));
  modelPath = writeTinyGguf(path.join(dir, 'tiny.gguf')).path;
}, 120_000);

afterAll(async () => {
  await agent?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('llama agent on the tiny GGUF', { timeout: 120_000 }, () => {
  it('writes the tiny model through the npm script entry', () => {
    const out = path.join(dir, 'cli.gguf');
    execFileSync(process.execPath, ['bin/make-tiny-model.mjs', out]);
    expect(fs.statSync(out).size).toBe(fs.statSync(modelPath).size);
  });

  it('loads with the GPU setting and threads asked for and answers with a validated tool call or text', async () => {
    agent = await createLlamaAgent({ modelPath, gpu, threads: 1, contextSize: 2048, maxTokens: 96, maxTextChars: 48 });
    if (gpu === 'cpu') expect(agent.loaded.gpu).toBe(false);
    else if (gpu !== 'auto') expect(agent.loaded.gpu).toBe(gpu);
    expect(agent.loaded.threads).toBe(1);
    expect(agent.modelVersion).toBe('llama:tiny.gguf');
    const messages: ChatMessage[] = [
      { role: 'system', content: 'You answer weather questions.' },
      { role: 'user', content: 'What is the weather in Paris?' },
    ];
    const first = await agent.turn(request(messages));
    expect(first.usage?.output_tokens).toBeGreaterThan(0);
    expect(first.usage?.input_tokens).toBeGreaterThan(0);
    if (first.toolCalls.length > 0) {
      expect(first.toolCalls).toHaveLength(1);
      expect(names).toContain(first.toolCalls[0].name);
      expect(typeof first.toolCalls[0].arguments).toBe('object');
      expect(first.finishReason).toBe('tool');
      expect(first.text).toBe('');
    } else {
      expect(typeof first.text).toBe('string');
      expect(['stop', 'length']).toContain(first.finishReason);
    }
  });

  it('takes a conversation with tool calls and tool results, many turns in a row', async () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'Weather in Oslo?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_0_0', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } }] },
      { role: 'tool', tool_call_id: 'call_0_0', name: 'get_weather', content: '{"temp_c": 4}' },
    ];
    const seen = new Set<string>();
    for (let turn = 1; turn <= 6; turn++) {
      const result = await agent!.turn(request(messages, turn));
      for (const call of result.toolCalls) expect(names).toContain(call.name);
      seen.add(result.toolCalls.length > 0 ? 'tool' : 'text');
    }
    expect(seen.size).toBeGreaterThan(0);
  });

  it('gives the same answer for the same seed and rollout', async () => {
    const messages: ChatMessage[] = [{ role: 'user', content: 'Search for cheap flights to Rome.' }];
    const one = await agent!.turn(request(messages, 4));
    await agent!.turn(request([{ role: 'user', content: 'something else in between' }], 1));
    const two = await agent!.turn(request(messages, 4));
    expect(two.toolCalls).toEqual(one.toolCalls);
    expect(two.text).toBe(one.text);
  });

  it('refuses a turn whose signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(agent!.turn(request([{ role: 'user', content: 'hi' }], 0, controller.signal))).rejects.toThrow(/cancelled/);
  });

  it('stops a turn that is being generated when its signal aborts, and answers the next one', async () => {
    const long = await createLlamaAgent({ modelPath, gpu: 'cpu', threads: 1, maxTokens: 4000, maxTextChars: 4000 });
    try {
      const controller = new AbortController();
      const noTools = { ...request([{ role: 'user', content: 'Write a long story.' }], 0, controller.signal), tools: [] };
      const started = Date.now();
      const pending = long.turn(noTools);
      // Unaborted, this seeded CPU turn writes ~170 tokens (over half a second here); 20 ms in, it is mid-way.
      setTimeout(() => controller.abort(), 20);
      await expect(pending).rejects.toThrow(/cancelled/);
      expect(Date.now() - started).toBeLessThan(3000);
      const next = await long.turn({ ...request([{ role: 'user', content: 'hi' }]), tools: [] });
      expect(next.toolCalls).toEqual([]);
      expect(long.stats.turns).toBe(1);
    } finally {
      await long.close();
    }
  });

  it('fails the turn in flight when the model process is killed, then starts a fresh one', async () => {
    const first = agent!.pid!;
    const inFlight = agent!.turn(request([{ role: 'user', content: 'Weather in Rome?' }], 5));
    process.kill(first, 'SIGKILL');
    await expect(inFlight).rejects.toThrow(/tiny\.gguf crashed: its model process was killed by SIGKILL/);
    const after = await agent!.turn(request([{ role: 'user', content: 'Weather in Rome?' }], 5));
    expect(after.usage?.output_tokens).toBeGreaterThan(0);
    expect(agent!.pid).not.toBe(first);
  });

  it('fails cleanly after close()', async () => {
    const closing = agent!;
    agent = undefined;
    await closing.close();
    await expect(closing.turn(request([{ role: 'user', content: 'hi' }]))).rejects.toThrow(/closed/);
  });
});

describe('bad model files', { timeout: 120_000 }, () => {
  it('refuses a truncated GGUF, naming the file', async () => {
    const bad = path.join(dir, 'truncated.gguf');
    fs.writeFileSync(bad, fs.readFileSync(modelPath).subarray(0, 200_000));
    await expect(createLlamaAgent({ modelPath: bad, gpu: 'cpu', threads: 1 })).rejects.toThrow(/truncated\.gguf.*truncated/);
  });

  it('refuses a file that is not GGUF', async () => {
    const bad = path.join(dir, 'notes.gguf');
    fs.writeFileSync(bad, 'this is not a model, just some text that is long enough');
    await expect(createLlamaAgent({ modelPath: bad, gpu: 'cpu', threads: 1 })).rejects.toThrow(/notes\.gguf.*not a GGUF/);
  });

  it.skipIf(fs.existsSync('/dev/nvidiactl'))('says plainly when the GPU asked for is not there', async () => {
    await expect(createLlamaAgent({ modelPath, gpu: 'cuda', threads: 1 })).rejects.toThrow(/tiny\.gguf.*no llama\.cpp build for gpu "cuda"/);
  });

  it('survives llama.cpp aborting on a model without feed_forward_length: only the child dies', async () => {
    const bad = writeTinyGguf(path.join(dir, 'no-ffn.gguf'), { omitKeys: ['llama.feed_forward_length'] }).path;
    const error = await createLlamaAgent({ modelPath: bad, gpu: 'cpu', threads: 1 }).then(
      () => null,
      (caught: Error) => caught,
    );
    expect(error?.message).toMatch(/no-ffn\.gguf/);
    expect(error?.message).toMatch(/crashed|could not be loaded/);
    // This process is still here and can still load a good model.
    const again = await createLlamaAgent({ modelPath, gpu: 'cpu', threads: 1, maxTokens: 16 });
    const result = await again.turn(request([{ role: 'user', content: 'hi' }]));
    expect(result.usage?.output_tokens).toBeGreaterThan(0);
    await again.close();
  });
});
