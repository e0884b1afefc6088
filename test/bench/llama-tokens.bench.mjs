// Tokens per second of the tiny random-weight GGUF at each thread count, CPU or GPU: raw node-llama-cpp decoding
// and prompt ingestion, then end to end through the llama agent (child process, IPC, JSON grammar, validation).
// usage: node test/bench/llama-tokens.bench.mjs [--gpu cpu|auto|cuda|vulkan|metal] [--threads 1,2] [--tokens 256]
//        [--model FILE.gguf] [--json]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getLlama, LlamaLogLevel } from 'node-llama-cpp';
import { writeTinyGguf } from '../fixtures/make-tiny-gguf.mjs';

function flag(name, fallback) {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : fallback;
}

const gpuFlag = flag('gpu', 'cpu');
const threadList = flag('threads', '1,2').split(',').map(Number);
const generate = Number(flag('tokens', '256'));
const asJson = process.argv.includes('--json');
/** Each measurement stops early after this long (oversubscribed threads can run 100x slower). */
const BUDGET_MS = 15_000;
if (threadList.some((t) => !Number.isInteger(t) || t < 1)) throw new Error('--threads takes whole numbers >= 1, e.g. 1,2');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'while-llama-bench-'));
const modelPath = flag('model', null) ?? writeTinyGguf(path.join(dir, 'tiny.gguf')).path;

async function measure(llama, model, threads) {
  const context = await model.createContext({ contextSize: 1024, threads: { ideal: threads, min: threads } });
  try {
    const prompt = model.tokenize('The weather in Paris is mild today, and the forecast for the week says rain on Thursday. '.repeat(2));
    // Prompt ingestion: one batch evaluation of the whole prompt.
    const ingestSequence = context.getSequence();
    let started = performance.now();
    await ingestSequence.evaluateWithoutGeneratingNewTokens(prompt);
    const ingestMs = performance.now() - started;
    ingestSequence.dispose();
    // Generation: one token at a time, sampled with a fixed seed, not stopping at end-of-text.
    const sequence = context.getSequence();
    let produced = 0;
    started = performance.now();
    for await (const token of sequence.evaluate(model.tokenize('Hello'), { temperature: 0.8, seed: 42 })) {
      void token;
      if (++produced >= generate || performance.now() - started > BUDGET_MS) break;
    }
    const generateMs = performance.now() - started;
    return {
      threads,
      prompt_tokens: prompt.length,
      prompt_tokens_per_s: Math.round((prompt.length / ingestMs) * 1000),
      generated_tokens: produced,
      tokens_per_s: Math.round((produced / generateMs) * 1000),
    };
  } finally {
    await context.dispose();
  }
}

const agentBundle = fileURLToPath(new URL('../../out/engine/llama-agent.mjs', import.meta.url));

/** Turns through createLlamaAgent, as a run makes them; tokens/s from the model process's own timing. */
async function measureAgent(threads) {
  if (!fs.existsSync(agentBundle)) return { threads, skipped: 'out/engine/llama-agent.mjs missing: run npm run build:engine' };
  const { createLlamaAgent } = await import(agentBundle);
  const agent = await createLlamaAgent({ modelPath, gpu: gpuFlag, threads, contextSize: 2048, maxTokens: 128, maxTextChars: 96 });
  const tools = [{ type: 'function', function: { name: 'get_order', parameters: { type: 'object', properties: { order_id: { type: 'string' } } } } }];
  const turns = 6;
  let failed = 0;
  const started = performance.now();
  let done = 0;
  for (let i = 0; i < turns && performance.now() - started < BUDGET_MS; i++, done++) {
    const rollout = { scenarioId: 'bench', rolloutIndex: i, evalRun: 0, seed: 1, turn: 0 };
    await agent.turn({ messages: [{ role: 'user', content: 'Where is order ORD-1042?' }], tools, rollout, signal: new AbortController().signal }).catch(() => failed++);
  }
  const wallMs = performance.now() - started;
  const { stats, loaded } = agent;
  await agent.close();
  return {
    threads,
    gpu: loaded.gpu,
    turns: done,
    failed,
    output_tokens: stats.output_tokens,
    tokens_per_s: Math.round((stats.output_tokens / stats.model_ms) * 1000),
    turns_per_s: Number(((done / wallMs) * 1000).toFixed(2)),
  };
}

try {
  const llama = await getLlama({
    gpu: gpuFlag === 'cpu' ? false : gpuFlag,
    build: 'never',
    maxThreads: Math.max(...threadList),
    logLevel: LlamaLogLevel.error,
  });
  const model = await llama.loadModel({ modelPath, gpuLayers: gpuFlag === 'cpu' ? 0 : 'auto' });
  const results = [];
  for (const threads of threadList) results.push(await measure(llama, model, threads));
  await model.dispose();
  await llama.dispose();
  const agentResults = [];
  for (const threads of threadList) agentResults.push(await measureAgent(threads));
  const summary = {
    bench: 'llama-tokens',
    model: path.basename(modelPath),
    model_bytes: fs.statSync(modelPath).size,
    gpu_requested: gpuFlag,
    gpu: llama.gpu,
    gpu_layers: model.gpuLayers,
    gpu_devices: llama.gpu ? await llama.getGpuDeviceNames() : [],
    cpu_cores: os.availableParallelism(),
    results,
    agent: agentResults,
  };
  if (asJson) console.log(JSON.stringify(summary));
  else {
    console.log(`llama-tokens: ${summary.model} (${summary.model_bytes} bytes), gpu requested ${gpuFlag}, llama.gpu=${summary.gpu}, gpu layers ${summary.gpu_layers}${summary.gpu_devices.length ? ` (${summary.gpu_devices.join(', ')})` : ''}, ${summary.cpu_cores} cores`);
    for (const r of results) {
      console.log(`  threads=${r.threads}: generation ${r.tokens_per_s} tokens/s (${r.generated_tokens} tokens), prompt ${r.prompt_tokens_per_s} tokens/s (${r.prompt_tokens} tokens)`);
    }
    if (results.length > 1) console.log(`  threads=${results[1].threads} vs ${results[0].threads}: ${(results[1].tokens_per_s / results[0].tokens_per_s).toFixed(2)}x generation speed`);
    for (const r of agentResults) {
      if (r.skipped) console.log(`  agent threads=${r.threads}: skipped (${r.skipped})`);
      else console.log(`  agent threads=${r.threads} (gpu ${r.gpu}): ${r.tokens_per_s} tokens/s with the JSON grammar, ${r.turns_per_s} turns/s, ${r.turns - r.failed}/${r.turns} turns valid`);
    }
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
