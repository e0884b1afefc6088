// The openai:MODEL@BASE_URL agent against the local fake server: tool calls, retries, the concurrency cap, bad answers.
import { afterEach, describe, expect, it } from 'vitest';
import type { ChatMessage, ToolSchema, TurnRequest } from '../../main/agents/agent-types';
import { isLocalUrl, resolveApiKey, setKeychainLookup } from '../../main/agents/api-key';
import { createOpenAiAgent, openAiAgentFromSpec, parseOpenAiSpec } from '../../main/agents/openai-agent';
import { startFakeOpenAiServer, type FakeOpenAiServer, type FakeServerOptions } from '../fixtures/fake-openai-server.mjs';

const tools: ToolSchema[] = [
  { type: 'function', function: { name: 'lookup_order', parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] } } },
];

function request(messages: ChatMessage[], signal = new AbortController().signal): TurnRequest {
  return { messages, tools, rollout: { scenarioId: 's1', rolloutIndex: 0, evalRun: 0, seed: 0, turn: 0 }, signal };
}

let server: FakeOpenAiServer | undefined;
async function start(options: FakeServerOptions = {}) {
  server = await startFakeOpenAiServer(options);
  return server;
}
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const fast = { retryBaseMs: 5, retryMaxMs: 20 };

describe('openai agent', () => {
  it('parses a scripted tool call, then the final answer after the tool result', async () => {
    const fake = await start({
      record: true,
      scenarios: [{ match: 'A-1042', turns: [{ content: 'Let me check.', tool_calls: [{ name: 'lookup_order', arguments: { order_id: 'A-1042' } }] }, 'Your order A-1042 has shipped.'] }],
    });
    const agent = createOpenAiAgent({ model: 'm1', baseUrl: fake.baseUrl, temperature: 0.2, maxTokens: 64 });
    const messages: ChatMessage[] = [{ role: 'user', content: 'Where is order A-1042?' }];
    const first = await agent.turn(request(messages));
    expect(first.text).toBe('Let me check.');
    expect(first.finishReason).toBe('tool');
    expect(first.toolCalls).toHaveLength(1);
    expect(first.toolCalls[0].name).toBe('lookup_order');
    expect(first.toolCalls[0].arguments).toEqual({ order_id: 'A-1042' });
    expect(first.usage?.input_tokens).toBeGreaterThan(0);
    messages.push(
      { role: 'assistant', content: first.text, tool_calls: first.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: JSON.stringify(c.arguments) } })) },
      { role: 'tool', tool_call_id: first.toolCalls[0].id, content: '{"status":"shipped"}' },
    );
    const second = await agent.turn(request(messages));
    expect(second).toMatchObject({ text: 'Your order A-1042 has shipped.', toolCalls: [], finishReason: 'stop' });
    expect(fake.stats.bodies[0]).toMatchObject({ model: 'm1', temperature: 0.2, max_tokens: 64, tools });
    expect(agent.sampling).toEqual({ temperature: 0.2, max_tokens: 64, model: 'm1' });
    expect(agent.modelVersion).toBe('m1');
  });

  it('reads Qwen/Hermes <tool_call> markup when the server sends no native tool_calls', async () => {
    const fake = await start({ respond: () => ({ content: '<think>hmm</think>Checking.<tool_call>{"name": "lookup_order", "arguments": {"order_id": "B-7"}}</tool_call>' }) });
    const agent = createOpenAiAgent({ model: 'm', baseUrl: fake.baseUrl });
    const result = await agent.turn(request([{ role: 'user', content: 'B-7?' }]));
    expect(result.text).toBe('Checking.');
    expect(result.toolCalls).toEqual([{ id: 'call_0', name: 'lookup_order', arguments: { order_id: 'B-7' } }]);
  });

  it('retries 429 (honouring Retry-After), 500, a reset and a timeout, then succeeds', async () => {
    const fake = await start({ faults: [{ kind: 'status', status: 429, retryAfter: 0.05 }, { kind: 'status', status: 500 }, { kind: 'reset' }, { kind: 'hang' }] });
    const retries: string[] = [];
    const agent = createOpenAiAgent({ model: 'm', baseUrl: fake.baseUrl, maxRetries: 4, timeoutMs: 300, ...fast, onRetry: (info) => retries.push(`${info.delayMs}:${info.reason}`) });
    const started = Date.now();
    const result = await agent.turn(request([{ role: 'user', content: 'C-22' }]));
    expect(result.toolCalls[0].name).toBe('lookup_order');
    expect(fake.stats.requests).toBe(5);
    expect(retries).toHaveLength(4);
    expect(retries[0]).toMatch(/^50:.*429/);
    expect(retries[1]).toMatch(/500/);
    expect(retries[3]).toMatch(/did not answer within 300 ms/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(340);
  });

  it('gives up after a bounded number of attempts with a clear error, and does not retry a 400', async () => {
    const fake = await start({ faultFor: () => ({ kind: 'status', status: 503 }) });
    const agent = createOpenAiAgent({ model: 'm', baseUrl: fake.baseUrl, maxRetries: 2, ...fast });
    await expect(agent.turn(request([{ role: 'user', content: 'x' }]))).rejects.toThrow(/answered 503.*gave up after 3 attempts/);
    expect(fake.stats.requests).toBe(3);
    fake.reset();
    const bad = await start({ faultFor: () => ({ kind: 'status', status: 400, body: { error: { message: 'context too long' } } }) });
    const agent2 = createOpenAiAgent({ model: 'm', baseUrl: bad.baseUrl, maxRetries: 3, ...fast });
    await expect(agent2.turn(request([{ role: 'user', content: 'x' }]))).rejects.toThrow(/answered 400: .*context too long/);
    expect(bad.stats.requests).toBe(1);
    await fake.close();
  });

  it('turns malformed tool-call arguments into an agent error, not a crash', async () => {
    const fake = await start({ faults: [{ kind: 'malformed_args' }, { kind: 'malformed_args', arguments: '[1,2]' }, { kind: 'bad_json' }] });
    const agent = createOpenAiAgent({ model: 'm', baseUrl: fake.baseUrl, maxRetries: 0 });
    const turn = () => agent.turn(request([{ role: 'user', content: 'x' }]));
    await expect(turn()).rejects.toMatchObject({ name: 'OpenAiAgentError', message: expect.stringMatching(/tool call 0 \("lookup_order"\): arguments are not valid JSON/) });
    await expect(turn()).rejects.toThrow(/arguments must be a JSON object, got an array/);
    await expect(turn()).rejects.toThrow(/body that is not JSON/);
  });

  it('keeps requests in flight under the concurrency cap shared by all rollouts', async () => {
    const fake = await start({ delayMs: 30 });
    const agent = createOpenAiAgent({ model: 'm', baseUrl: fake.baseUrl, concurrency: 4 });
    await Promise.all(Array.from({ length: 20 }, (_, i) => agent.turn(request([{ role: 'user', content: `q${i}` }]))));
    expect(fake.stats.completions).toBe(20);
    expect(fake.stats.maxInFlight).toBe(4);
  });

  it('reuses keep-alive connections and follows a script list in order', async () => {
    const fake = await start({ script: ['one', { tool_calls: [{ name: 'lookup_order', arguments: '{"order_id": "Z-9"}' }] }, 'three'] });
    const agent = createOpenAiAgent({ model: 'm', baseUrl: fake.baseUrl });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await agent.turn(request([{ role: 'user', content: 'no id here' }])));
    expect(answers.map((a) => a.text)).toEqual(['one', '', 'three', '']);
    expect(answers[1].toolCalls[0].arguments).toEqual({ order_id: 'Z-9' });
    expect(answers[3].toolCalls[0].arguments).toEqual({ order_id: 'demo' });
    for (let i = 0; i < 6; i++) await agent.turn(request([{ role: 'user', content: 'again' }]));
    // undici may open a second socket while the first is being released; after that every request reuses them.
    expect(fake.stats.connections).toBeLessThanOrEqual(2);
    expect(fake.stats.requests).toBe(10);
  });

  it('sends the key only as a bearer header to the base URL, and aborts when the rollout is cancelled', async () => {
    const fake = await start({ faults: [{ kind: 'hang' }] });
    const agent = await openAiAgentFromSpec(`openai:qwen3@${fake.baseUrl}`, { apiKeyEnv: 'MY_KEY', env: { MY_KEY: 'sk-test-123' }, maxRetries: 0 });
    const controller = new AbortController();
    const pending = agent.turn(request([{ role: 'user', content: 'x' }], controller.signal));
    setTimeout(() => controller.abort(new Error('cancelled by the person')), 50);
    await expect(pending).rejects.toThrow(/cancelled by the person/);
    await agent.turn(request([{ role: 'user', content: 'x' }]));
    expect([...fake.stats.authorizations]).toEqual(['Bearer sk-test-123']);
  });

  it('a cancelled run frees waiting and in-flight requests alike', async () => {
    const fake = await start({ faultFor: () => ({ kind: 'hang' }) });
    const agent = createOpenAiAgent({ model: 'm', baseUrl: fake.baseUrl, concurrency: 1 });
    const controller = new AbortController();
    const pending = Array.from({ length: 5 }, () => agent.turn(request([{ role: 'user', content: 'x' }], controller.signal)).catch((error: Error) => error.message));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fake.stats.inFlight).toBe(1);
    controller.abort(new Error('run cancelled'));
    expect(await Promise.all(pending)).toEqual(Array(5).fill('run cancelled'));
    await agent.close();
  });

  it('never follows a redirect, so the key cannot reach another server', async () => {
    const elsewhere = await startFakeOpenAiServer();
    try {
      const fake = await start({ faults: [{ kind: 'redirect', location: `${elsewhere.baseUrl}/chat/completions` }] });
      const agent = createOpenAiAgent({ model: 'm', baseUrl: fake.baseUrl, apiKey: 'sk-secret', ...fast });
      await expect(agent.turn(request([{ role: 'user', content: 'x' }]))).rejects.toThrow(/redirect/i);
      expect(fake.stats.requests).toBe(1);
      expect(elsewhere.stats.requests).toBe(0);
    } finally {
      await elsewhere.close();
    }
  });
});

describe('parseOpenAiSpec', () => {
  it('splits model and base URL and refuses bad ones', () => {
    expect(parseOpenAiSpec('openai:Qwen/Qwen3-4B@http://127.0.0.1:8000/v1/')).toEqual({ model: 'Qwen/Qwen3-4B', baseUrl: 'http://127.0.0.1:8000/v1' });
    expect(parseOpenAiSpec('openai:m@http://h:1/v1/chat/completions').baseUrl).toBe('http://h:1/v1');
    expect(parseOpenAiSpec('openai:gpt-4o', { OPENAI_BASE_URL: 'http://x:9/v1' }).baseUrl).toBe('http://x:9/v1');
    expect(() => parseOpenAiSpec('openai:@http://h/v1')).toThrow(/names no model/);
    expect(() => parseOpenAiSpec('openai:m@http://user:pw@h/v1')).toThrow(/must not carry credentials/);
    expect(() => parseOpenAiSpec('openai:m@ftp://h/v1')).toThrow(/must start with http/);
  });
});

describe('resolveApiKey', () => {
  it('reads --api-key-env NAME (default OPENAI_API_KEY), then the keychain hook, else none', async () => {
    const baseUrl = 'https://models.example/v1';
    expect(await resolveApiKey({ baseUrl, env: { OPENAI_API_KEY: ' sk-env ' } })).toBe('sk-env');
    expect(await resolveApiKey({ baseUrl, envName: 'VLLM_KEY', env: { VLLM_KEY: 'sk-vllm', OPENAI_API_KEY: 'sk-other' } })).toBe('sk-vllm');
    expect(await resolveApiKey({ baseUrl, env: {} })).toBeUndefined();
    const asked: string[] = [];
    setKeychainLookup(async (account) => {
      asked.push(`${account.envName}@${account.baseUrl}`);
      return 'sk-keychain';
    });
    try {
      expect(await resolveApiKey({ baseUrl, env: {} })).toBe('sk-keychain');
      expect(await resolveApiKey({ baseUrl, env: { OPENAI_API_KEY: 'sk-env' } })).toBe('sk-env');
      expect(asked).toEqual([`OPENAI_API_KEY@${baseUrl}`]);
    } finally {
      setKeychainLookup(null);
    }
    await expect(resolveApiKey({ baseUrl, envName: 'not a name' })).rejects.toThrow(/must name an environment variable/);
    expect(isLocalUrl('http://127.0.0.1:8000/v1')).toBe(true);
    expect(isLocalUrl(baseUrl)).toBe(false);
  });

  it('never hands a While key to an OpenAI-compatible endpoint elsewhere', async () => {
    const baseUrl = 'https://models.example/v1';
    await expect(resolveApiKey({ baseUrl, envName: 'MY_KEY', env: { MY_KEY: 'zp_secret123' } })).rejects.toThrow(/While key.*never to models\.example/);
    await expect(resolveApiKey({ baseUrl, envName: 'WHILEAI_API_KEY', env: { WHILEAI_API_KEY: 'anything' } })).rejects.toThrow(/While key/);
    setKeychainLookup(async () => 'zp_from_keychain');
    try {
      await expect(resolveApiKey({ baseUrl, env: {} })).rejects.toThrow(/While key/);
    } finally {
      setKeychainLookup(null);
    }
    // The While models host takes it.
    expect(await resolveApiKey({ baseUrl: 'https://api.while.ai/v1', envName: 'MY_KEY', env: { MY_KEY: 'zp_secret123' } })).toBe('zp_secret123');
  });
});
