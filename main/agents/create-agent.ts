// Builds an agent from its settings (shared/schema/run-settings.ts): seeded, an OpenAI-compatible server, or a local GGUF.
import type { AgentSettings } from '../../shared/schema/run-settings';
import type { Agent } from './agent-types';
import { DEFAULT_API_KEY_ENV, resolveApiKey } from './api-key';
import { createLlamaAgent } from './llama/llama-agent';
import { createOpenAiAgent } from './openai-agent';
import { createSeededAgent } from './seeded-agent';

export interface CreateAgentOptions {
  /** The run's seed (llama samples with it; a seeded agent with seed null uses it too). */
  seed?: number;
  /** Requests in flight at once (openai). */
  concurrency?: number;
  timeoutMs?: number;
  maxRetries?: number;
  /** What a judge pins for its agent (sdk-semantics §5.3): temperature 0, a short reply budget, the verdict schema. */
  temperature?: number;
  maxTokens?: number;
  responseFormat?: Record<string, unknown>;
  env?: Record<string, string | undefined>;
}

export async function createAgent(settings: AgentSettings, options: CreateAgentOptions = {}): Promise<Agent> {
  switch (settings.kind) {
    case 'seeded':
      return createSeededAgent({ misbehaveRate: settings.misbehave_rate });
    case 'openai': {
      const apiKey = await resolveApiKey({ envName: settings.api_key_env ?? DEFAULT_API_KEY_ENV, baseUrl: settings.base_url, env: options.env });
      return createOpenAiAgent({
        model: settings.model,
        baseUrl: settings.base_url,
        apiKey,
        concurrency: options.concurrency,
        timeoutMs: options.timeoutMs,
        maxRetries: options.maxRetries,
        temperature: options.temperature ?? settings.temperature ?? undefined,
        maxTokens: options.maxTokens ?? settings.max_tokens ?? undefined,
        responseFormat: options.responseFormat,
      });
    }
    case 'llama':
      return createLlamaAgent({
        modelPath: settings.model_path,
        gpu: settings.gpu,
        threads: settings.threads ?? undefined,
        contextSize: settings.context_size ?? undefined,
        seed: options.seed,
      });
  }
}
