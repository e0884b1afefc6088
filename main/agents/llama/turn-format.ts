// The JSON a local model must answer with (final text, or one tool call from an enum of tool names), as a
// bounded JSON schema for node-llama-cpp's grammar, plus the instructions that tell the model about it.
import type { ToolSchema } from '../agent-types';

/** The subset of JSON schema the grammar gets: every string and array bounded, no free-form objects. */
export type BoundedSchema =
  | { type: 'string'; maxLength: number }
  | { type: 'number' | 'integer' | 'boolean' }
  | { enum: Array<string | number | boolean> }
  | { type: 'array'; items: BoundedSchema; maxItems: number }
  | { type: 'object'; properties: Record<string, BoundedSchema>; additionalProperties?: false };

export const FORMAT_LIMITS = { argumentChars: 200, arrayItems: 8, properties: 24, depth: 3 };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Maps a tool's parameter schema onto the bounded subset; anything unusual becomes a bounded string. */
export function boundSchema(schema: unknown, depth = 0): BoundedSchema {
  const text: BoundedSchema = { type: 'string', maxLength: FORMAT_LIMITS.argumentChars };
  if (!isRecord(schema)) return text;
  if (Array.isArray(schema.enum)) {
    const values = schema.enum.filter((v): v is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof v));
    if (values.length > 0) return { enum: values.slice(0, 64) };
  }
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type === 'number' || type === 'integer' || type === 'boolean') return { type };
  if (type === 'array' && depth < FORMAT_LIMITS.depth) {
    return { type: 'array', items: boundSchema(schema.items, depth + 1), maxItems: FORMAT_LIMITS.arrayItems };
  }
  if ((type === 'object' || isRecord(schema.properties)) && depth < FORMAT_LIMITS.depth) {
    const properties: Record<string, BoundedSchema> = {};
    const entries = isRecord(schema.properties) ? Object.entries(schema.properties) : [];
    for (const [key, value] of entries.slice(0, FORMAT_LIMITS.properties)) properties[key] = boundSchema(value, depth + 1);
    return { type: 'object', properties, additionalProperties: false };
  }
  return text;
}

export function toolArgumentsSchema(tool: ToolSchema): BoundedSchema {
  const bounded = boundSchema(tool.function.parameters ?? { type: 'object', properties: {} });
  return 'type' in bounded && bounded.type === 'object' ? bounded : { type: 'object', properties: {}, additionalProperties: false };
}

/** The answer's schema: {"kind":"final","text":...} or {"kind":"tool_call","name":<enum>,"arguments":{...}}. */
export function responseSchema(tools: ToolSchema[], maxTextChars: number): Record<string, unknown> {
  const final = {
    type: 'object',
    properties: { kind: { const: 'final' }, text: { type: 'string', maxLength: maxTextChars } },
  };
  if (tools.length === 0) return final;
  const calls = tools.map((tool) => ({
    type: 'object',
    properties: { kind: { const: 'tool_call' }, name: { const: tool.function.name }, arguments: toolArgumentsSchema(tool) },
  }));
  return { oneOf: [...calls, final] };
}

export function instructions(tools: ToolSchema[]): string {
  const lines = ['Answer with one JSON object only.'];
  if (tools.length > 0) {
    lines.push('To call a tool: {"kind": "tool_call", "name": <tool name>, "arguments": {...}}. Tools:');
    for (const tool of tools) {
      const description = tool.function.description ? ` - ${tool.function.description}` : '';
      lines.push(`- ${tool.function.name}${description}; arguments: ${JSON.stringify(tool.function.parameters ?? {})}`);
    }
    lines.push('When you have the answer: {"kind": "final", "text": <your reply>}.');
  } else {
    lines.push('Reply as {"kind": "final", "text": <your reply>}.');
  }
  return lines.join('\n');
}
