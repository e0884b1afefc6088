// The `openai:MODEL@BASE_URL` agent: one chat completion with tools per assistant turn, against any
// OpenAI-compatible server (vLLM, Ollama, LM Studio, the While models host). sdk-semantics §4.3, §4.4.
import { normalizeBaseUrl, parseOpenAiSpec as parseSpec } from '../../shared/schema/agent-spec';
import type { Agent, TurnRequest, TurnResult } from './agent-types';
import { DEFAULT_API_KEY_ENV, resolveApiKey } from './api-key';
import { parseChatCompletion } from './openai-response';
import { OpenAiHttpError, createTransport } from './openai-transport';

export { OpenAiAgentError } from './openai-response';
export { OpenAiHttpError };

export interface OpenAiAgentOptions {
  model: string;
  /** The server's /v1 base, e.g. http://127.0.0.1:8000/v1. */
  baseUrl: string;
  apiKey?: string;
  /** Requests in flight at once, shared by every rollout that uses this agent (default 8). */
  concurrency?: number;
  /** Per attempt (default 300 s, as the SDK). */
  timeoutMs?: number;
  /** Retries after the first attempt on 429, 408, 5xx, resets and timeouts (default 3, as the SDK). */
  maxRetries?: number;
  temperature?: number;
  maxTokens?: number;
  /** First backoff step (default 400 ms, doubling, with jitter), and its ceiling (default 8 s). */
  retryBaseMs?: number;
  retryMaxMs?: number;
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
  /**
   * Sent as response_format (JSON mode or a json_schema, e.g. for judges). A server that refuses it with a 400 is
   * asked again without it, once, and not sent it again.
   */
  responseFormat?: Record<string, unknown>;
}

export const OPENAI_DEFAULTS = { concurrency: 8, timeoutMs: 300_000, maxRetries: 3, temperature: 0.8, maxTokens: 768, retryBaseMs: 400, retryMaxMs: 8_000 };

export { normalizeBaseUrl };

/** `openai:MODEL@BASE_URL` (the URL may be left out: then OPENAI_BASE_URL, else https://api.openai.com/v1). */
export function parseOpenAiSpec(spec: string, env: Record<string, string | undefined> = process.env): { model: string; baseUrl: string } {
  return parseSpec(spec, env);
}

export function createOpenAiAgent(options: OpenAiAgentOptions): Agent {
  if (!options.model) throw new Error('the OpenAI agent needs a model name');
  const baseUrl = normalizeBaseUrl(options.baseUrl);
  const temperature = options.temperature ?? OPENAI_DEFAULTS.temperature;
  const maxTokens = options.maxTokens ?? OPENAI_DEFAULTS.maxTokens;
  const transport = createTransport({
    url: `${baseUrl}/chat/completions`,
    apiKey: options.apiKey,
    concurrency: options.concurrency ?? OPENAI_DEFAULTS.concurrency,
    timeoutMs: options.timeoutMs ?? OPENAI_DEFAULTS.timeoutMs,
    maxRetries: options.maxRetries ?? OPENAI_DEFAULTS.maxRetries,
    retryBaseMs: options.retryBaseMs ?? OPENAI_DEFAULTS.retryBaseMs,
    retryMaxMs: options.retryMaxMs ?? OPENAI_DEFAULTS.retryMaxMs,
    onRetry: options.onRetry,
  });
  let closed = false;
  let sendFormat = options.responseFormat !== undefined;

  return {
    modelVersion: options.model,
    sampling: { temperature, max_tokens: maxTokens, model: options.model },
    async turn(request: TurnRequest): Promise<TurnResult> {
      if (closed) throw new Error('the OpenAI agent was closed');
      const body: Record<string, unknown> = { model: options.model, messages: request.messages, temperature, max_tokens: maxTokens };
      if (request.tools.length > 0) body.tools = request.tools;
      if (!sendFormat) return parseChatCompletion(await transport.post(body, request.signal));
      try {
        return parseChatCompletion(await transport.post({ ...body, response_format: options.responseFormat }, request.signal));
      } catch (error) {
        if (!(error instanceof OpenAiHttpError && error.status === 400)) throw error;
        sendFormat = false;
        return parseChatCompletion(await transport.post(body, request.signal));
      }
    },
    async close() {
      closed = true;
      transport.close();
    },
  };
}

export interface OpenAiSpecOptions extends Omit<OpenAiAgentOptions, 'model' | 'baseUrl' | 'apiKey'> {
  /** --api-key-env NAME (default OPENAI_API_KEY). */
  apiKeyEnv?: string;
  env?: Record<string, string | undefined>;
}

/** Parses the spec, resolves the key (environment, then the keychain hook) and builds the agent. */
export async function openAiAgentFromSpec(spec: string, options: OpenAiSpecOptions = {}): Promise<Agent> {
  const { model, baseUrl } = parseOpenAiSpec(spec, options.env);
  const apiKey = await resolveApiKey({ envName: options.apiKeyEnv ?? DEFAULT_API_KEY_ENV, baseUrl, env: options.env });
  const { apiKeyEnv: _envName, env: _env, ...rest } = options;
  return createOpenAiAgent({ ...rest, model, baseUrl, apiKey });
}
