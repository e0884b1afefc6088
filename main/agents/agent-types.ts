// The contract between the rollout loop and every agent (seeded, llama, openai).
// The loop owns the conversation and the tool world; an agent only decides the next assistant turn.

/** An OpenAI function tool schema, as written in task files. */
export interface ToolSchema {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown> };
}

/** The conversation so far, in OpenAI chat shape (tool results carry tool_call_id). */
export type ChatMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: Array<{ id: string; type: 'function'; function: { name: string; arguments: string } }> }
  | { role: 'tool'; tool_call_id: string; name?: string; content: string };

export interface TurnRequest {
  messages: ChatMessage[];
  tools: ToolSchema[];
  /** Identifies the rollout, so deterministic agents can seed themselves from it. */
  rollout: { scenarioId: string; rolloutIndex: number; evalRun: number; seed: number; turn: number };
  signal: AbortSignal;
}

export interface ToolCall {
  id: string;
  name: string;
  /** Already parsed and validated as a JSON object by the agent. */
  arguments: Record<string, unknown>;
}

export interface TurnResult {
  /** What the agent said in this turn ("" when it only called tools). */
  text: string;
  toolCalls: ToolCall[];
  /** 'length' when the model hit its token cap. */
  finishReason?: 'stop' | 'length' | 'tool' | 'error';
  usage?: { input_tokens: number; output_tokens: number };
}

export interface Agent {
  /** Written to rows as model_version. */
  readonly modelVersion: string;
  /** Written to rows as sampling ({temperature, max_tokens, model}) or null. */
  readonly sampling: Record<string, unknown> | null;
  turn(request: TurnRequest): Promise<TurnResult>;
  close(): Promise<void>;
}
