// Validates a local model's grammar-constrained answer before the loop uses it: the grammar is a hint, the
// output is untrusted. A tool call must name a given tool and carry arguments that fit that tool's bounded schema.
import { z } from '../../../shared/schema/zod';
import type { ToolSchema, TurnResult } from '../agent-types';
import { toolArgumentsSchema, type BoundedSchema } from './turn-format';

export class LlamaAnswerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LlamaAnswerError';
  }
}

/** The grammar bounds characters as llama.cpp sees them (UTF-8 pieces); a JS string of the same text can be longer
 * (surrogate pairs, U+FFFD for each stray byte), so the check here allows that slack and still bounds the size. */
const CHAR_SLACK = 4;

function zodFor(schema: BoundedSchema): z.ZodType {
  if ('enum' in schema) return z.union(schema.enum.map((value) => z.literal(value)) as unknown as [z.ZodLiteral, z.ZodLiteral]);
  switch (schema.type) {
    case 'string': return z.string().max(schema.maxLength * CHAR_SLACK);
    case 'number': return z.number();
    case 'integer': return z.number().int();
    case 'boolean': return z.boolean();
    case 'array': return z.array(zodFor(schema.items)).max(schema.maxItems);
    case 'object': {
      const shape: Record<string, z.ZodType> = {};
      for (const [key, value] of Object.entries(schema.properties)) shape[key] = zodFor(value).optional();
      return z.object(shape).strict();
    }
  }
}

/** A cut-off final answer still says something: recover the text written before the token cap. */
function salvageText(raw: string): string | null {
  const match = /^\s*\{\s*"kind"\s*:\s*"final"\s*,\s*"text"\s*:\s*"((?:[^"\\]|\\.)*)/.exec(raw);
  if (!match) return null;
  let body = match[1];
  for (let cut = 0; cut < 6; cut++) {
    try {
      return JSON.parse(`"${body}"`) as string;
    } catch {
      body = body.slice(0, -1);
    }
  }
  return null;
}

export function parseTurn(raw: string, stopReason: string, tools: ToolSchema[], turn: number, maxTextChars: number): TurnResult {
  const cut = stopReason === 'maxTokens';
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    const text = cut ? salvageText(raw) : null;
    if (text !== null) return { text, toolCalls: [], finishReason: 'length' };
    if (cut) return { text: '', toolCalls: [], finishReason: 'length' };
    throw new LlamaAnswerError(`the model's answer is not valid JSON (stopped by ${stopReason}): ${JSON.stringify(raw.slice(0, 120))}`);
  }
  const names = tools.map((tool) => tool.function.name);
  const answer = z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('final'), text: z.string().max(maxTextChars * CHAR_SLACK) }).strict(),
    z.object({ kind: z.literal('tool_call'), name: z.string(), arguments: z.record(z.string(), z.unknown()) }).strict(),
  ]).safeParse(value);
  if (!answer.success) throw new LlamaAnswerError(`the model's answer does not have the expected shape: ${answer.error.issues[0]?.message ?? 'invalid'}`);
  const data = answer.data;
  if (data.kind === 'final') return { text: data.text, toolCalls: [], finishReason: cut ? 'length' : 'stop' };

  const tool = tools.find((candidate) => candidate.function.name === data.name);
  if (!tool) throw new LlamaAnswerError(`the model called "${data.name}", which is not one of the task's tools (${names.join(', ') || 'none'})`);
  const args = zodFor(toolArgumentsSchema(tool)).safeParse(data.arguments);
  if (!args.success) {
    const issue = args.error.issues[0];
    throw new LlamaAnswerError(`the model's arguments for "${tool.function.name}" are not valid: ${issue?.path.join('.') || '(arguments)'}: ${issue?.message}`);
  }
  return {
    text: '',
    toolCalls: [{ id: `call_${turn}_0`, name: tool.function.name, arguments: args.data as Record<string, unknown> }],
    finishReason: 'tool',
  };
}
