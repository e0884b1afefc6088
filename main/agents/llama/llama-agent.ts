// The `llama:PATH.gguf` agent: a local GGUF model in its own process, answering each turn with validated,
// grammar-constrained JSON. A bad file or a llama.cpp abort fails the agent with an error naming the file.
import os from 'node:os';
import path from 'node:path';
import type { Agent, TurnRequest, TurnResult } from '../agent-types';
import { GgufHeaderError, readGgufHeader } from './gguf-header';
import { missingTensorData } from './gguf-info';
import type { LlamaGpu, ReadyReply } from './llama-protocol';
import { LlamaModelError, ModelProcess, type LoadSettings } from './model-process';
import { parseTurn } from './turn-parse';

export interface LlamaAgentOptions {
  modelPath: string;
  gpu?: LlamaGpu;
  threads?: number;
  contextSize?: number;
  seed?: number;
  maxTokens?: number;
  temperature?: number;
  /** Longest final text the grammar allows (characters). */
  maxTextChars?: number;
  loadTimeoutMs?: number;
}

export interface LlamaAgent extends Agent {
  /** What the model process reported after loading: GPU type (false on CPU), layers offloaded, threads, context. */
  readonly loaded: ReadyReply;
  /** Totals over the turns answered so far, as the model process measured them (generation time includes the prompt). */
  readonly stats: { turns: number; output_tokens: number; input_tokens: number; model_ms: number };
  /** The model process's id (changes when a crashed process is replaced). */
  readonly pid: number | undefined;
}

const MAX_RESTARTS = 2;

/** More threads than free cores makes llama.cpp's spinning threads wait on each other (measured: 2 threads on a busy
 * 2-core machine ran ~100x slower than 1), so the default leaves cores free: 1 up to 2 cores, else half, at most 8. */
export function defaultThreads(cores = os.availableParallelism()): number {
  return cores <= 2 ? 1 : Math.min(8, Math.floor(cores / 2));
}

function checkFile(modelPath: string): void {
  try {
    const missing = missingTensorData(readGgufHeader(modelPath));
    if (missing) throw new LlamaModelError(`model ${modelPath}: ${missing}`);
  } catch (error) {
    if (error instanceof GgufHeaderError) throw new LlamaModelError(`model ${error.message}`);
    throw error;
  }
}

function turnSeed(base: number, request: TurnRequest): number {
  const key = `${base}:${request.rollout.scenarioId}:${request.rollout.rolloutIndex}:${request.rollout.evalRun}:${request.rollout.turn}`;
  let hash = 2166136261;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 16777619);
  return hash >>> 0;
}

export async function createLlamaAgent(options: LlamaAgentOptions): Promise<LlamaAgent> {
  const modelPath = path.resolve(options.modelPath);
  const threads = options.threads ?? defaultThreads();
  if (!Number.isInteger(threads) || threads < 1) throw new LlamaModelError(`threads must be a whole number of at least 1, got ${threads}`);
  checkFile(modelPath);
  const settings: LoadSettings = {
    modelPath,
    gpu: options.gpu ?? 'auto',
    threads,
    contextSize: options.contextSize ?? 4096,
    loadTimeoutMs: options.loadTimeoutMs ?? 300_000,
  };
  const maxTokens = options.maxTokens ?? 512;
  const temperature = options.temperature ?? 0.7;
  const maxTextChars = options.maxTextChars ?? 4000;

  let proc = new ModelProcess(settings);
  const loaded = await proc.start().catch(async (error: unknown) => {
    await proc.close();
    throw error;
  });
  let restarts = 0;
  let closed = false;
  let restarting: Promise<void> | undefined;
  const stats = { turns: 0, output_tokens: 0, input_tokens: 0, model_ms: 0 };

  /** A model that loaded once and then crashed (out of memory, driver reset) gets a fresh process, a few times. */
  async function live(): Promise<ModelProcess> {
    if (closed) throw new LlamaModelError(`model ${modelPath}: the agent was closed`);
    if (!proc.dead) return proc;
    if (!restarting) {
      if (restarts >= MAX_RESTARTS) throw new LlamaModelError(`model ${modelPath}: its model process crashed ${restarts + 1} times; giving up`);
      restarts++;
      const next = new ModelProcess(settings);
      restarting = next.start().then(
        () => {
          proc = next;
          restarting = undefined;
        },
        (error: unknown) => {
          restarting = undefined;
          throw error;
        },
      );
    }
    await restarting;
    return proc;
  }

  return {
    modelVersion: `llama:${path.basename(modelPath)}`,
    sampling: { temperature, max_tokens: maxTokens, model: path.basename(modelPath) },
    loaded,
    stats,
    get pid() {
      return proc.pid;
    },
    async turn(request: TurnRequest): Promise<TurnResult> {
      const reply = await (await live()).turn(
        {
          messages: request.messages,
          tools: request.tools,
          seed: turnSeed(options.seed ?? request.rollout.seed, request),
          maxTokens,
          temperature,
          maxTextChars,
        },
        request.signal,
      );
      stats.turns++;
      stats.output_tokens += reply.outputTokens;
      stats.input_tokens += reply.inputTokens;
      stats.model_ms += reply.ms;
      const result = parseTurn(reply.raw, reply.stopReason, request.tools, request.rollout.turn, maxTextChars);
      return { ...result, usage: { input_tokens: reply.inputTokens, output_tokens: reply.outputTokens } };
    },
    async close(): Promise<void> {
      closed = true;
      await restarting?.catch(() => undefined);
      await proc.close();
    },
  };
}
