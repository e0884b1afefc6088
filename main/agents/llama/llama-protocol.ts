// Messages between the llama agent (parent) and its model process (llama-child): the child's answers are
// untrusted and validated with these schemas before the parent uses them.
import { z } from '../../../shared/schema/zod';
import type { ChatMessage, ToolSchema } from '../agent-types';

export type LlamaGpu = 'auto' | 'cpu' | 'cuda' | 'vulkan' | 'metal';

export type ChildRequest =
  | { type: 'load'; modelPath: string; gpu: LlamaGpu; threads: number; contextSize: number }
  | {
      type: 'turn';
      id: number;
      messages: ChatMessage[];
      tools: ToolSchema[];
      seed: number;
      maxTokens: number;
      temperature: number;
      maxTextChars: number;
    }
  | { type: 'cancel'; id: number };

const count = z.number().int().min(0);

export const childReply = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('ready'),
    gpu: z.union([z.string().max(40), z.literal(false)]),
    gpuLayers: count,
    contextSize: count,
    threads: count,
    loadMs: z.number().min(0),
    modelName: z.string().max(500).nullable(),
  }),
  z.object({ type: z.literal('load_error'), message: z.string().max(20_000) }),
  z.object({
    type: z.literal('result'),
    id: count,
    raw: z.string().max(1_000_000),
    stopReason: z.string().max(100),
    inputTokens: count,
    outputTokens: count,
    ms: z.number().min(0),
  }),
  z.object({ type: z.literal('turn_error'), id: count, message: z.string().max(20_000), aborted: z.boolean() }),
]);
export type ChildReply = z.infer<typeof childReply>;
export type ReadyReply = Extract<ChildReply, { type: 'ready' }>;
export type ResultReply = Extract<ChildReply, { type: 'result' }>;
