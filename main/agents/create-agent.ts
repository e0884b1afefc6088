// Builds an agent from its spec string: `seeded`, `openai:MODEL@BASE_URL` or `llama:PATH.gguf`.
import type { Agent } from './agent-types';
import { createLlamaAgent } from './llama/llama-agent';
import { openAiAgentFromSpec, parseOpenAiSpec } from './openai-agent';
import { createSeededAgent } from './seeded-agent';

export interface CreateAgentOptions {
  seed?: number;
  misbehaveRate?: number;
  /** Requests in flight at once (openai). */
  concurrency?: number;
  timeoutMs?: number;
  maxRetries?: number;
  /** --api-key-env NAME (openai; default OPENAI_API_KEY). */
  apiKeyEnv?: string;
  /** llama: 'auto' (default), 'cpu' for no offload, or a backend name. */
  gpu?: 'auto' | 'cpu' | 'cuda' | 'vulkan' | 'metal';
  threads?: number;
  contextSize?: number;
}

export type AgentSpec = { kind: 'seeded' } | { kind: 'openai'; spec: string } | { kind: 'llama'; modelPath: string };

/** Checks a spec without building anything, so a bad one is refused before a run starts. */
export function parseAgentSpec(spec: string): AgentSpec {
  const trimmed = spec.trim();
  if (trimmed === 'seeded') return { kind: 'seeded' };
  if (trimmed.startsWith('openai:')) {
    parseOpenAiSpec(trimmed);
    return { kind: 'openai', spec: trimmed };
  }
  if (trimmed.startsWith('llama:')) {
    const modelPath = trimmed.slice('llama:'.length).trim();
    if (!modelPath.toLowerCase().endsWith('.gguf')) throw new Error(`agent spec "${spec}": llama: needs the path of a .gguf file, e.g. llama:./models/qwen.gguf`);
    return { kind: 'llama', modelPath };
  }
  throw new Error(`unknown agent spec "${spec}": use seeded, openai:MODEL@BASE_URL or llama:PATH.gguf`);
}

export async function createAgent(spec: string, options: CreateAgentOptions = {}): Promise<Agent> {
  const parsed = parseAgentSpec(spec);
  if (parsed.kind === 'seeded') return createSeededAgent({ misbehaveRate: options.misbehaveRate });
  if (parsed.kind === 'openai') {
    return openAiAgentFromSpec(parsed.spec, {
      apiKeyEnv: options.apiKeyEnv,
      concurrency: options.concurrency,
      timeoutMs: options.timeoutMs,
      maxRetries: options.maxRetries,
    });
  }
  return createLlamaAgent({
    modelPath: parsed.modelPath,
    gpu: options.gpu ?? 'auto',
    threads: options.threads,
    contextSize: options.contextSize,
    seed: options.seed,
  });
}
