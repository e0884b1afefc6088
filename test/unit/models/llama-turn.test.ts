// The local model's answer format: bounded grammar schema from tool schemas, and validation of untrusted answers.
import { describe, expect, it } from 'vitest';
import type { ToolSchema } from '../../../main/agents/agent-types';
import { toChatHistory } from '../../../main/agents/llama/chat-history';
import { boundSchema, FORMAT_LIMITS, responseSchema } from '../../../main/agents/llama/turn-format';
import { parseTurn } from '../../../main/agents/llama/turn-parse';

const tools: ToolSchema[] = [
  {
    type: 'function',
    function: {
      name: 'book',
      parameters: {
        type: 'object',
        properties: {
          city: { type: 'string' },
          nights: { type: 'integer' },
          unit: { enum: ['c', 'f'] },
          tags: { type: 'array', items: { type: 'string' } },
          extra: { type: 'object' },
          anything: {},
        },
      },
    },
  },
  { type: 'function', function: { name: 'noop' } },
];

describe('bounded response schema', () => {
  it('bounds every string and array, keeps enums, and turns unknown shapes into bounded strings', () => {
    const args = boundSchema(tools[0].function.parameters);
    expect(args).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: {
        city: { type: 'string', maxLength: FORMAT_LIMITS.argumentChars },
        nights: { type: 'integer' },
        unit: { enum: ['c', 'f'] },
        tags: { type: 'array', items: { type: 'string', maxLength: FORMAT_LIMITS.argumentChars }, maxItems: FORMAT_LIMITS.arrayItems },
        extra: { type: 'object', properties: {}, additionalProperties: false },
        anything: { type: 'string', maxLength: FORMAT_LIMITS.argumentChars },
      },
    });
  });

  it('offers one tool_call branch per tool name plus the final answer', () => {
    const schema = responseSchema(tools, 100) as { oneOf: Array<{ properties: { kind: { const: string }; name?: { const: string } } }> };
    expect(schema.oneOf.map((branch) => branch.properties.name?.const ?? branch.properties.kind.const)).toEqual(['book', 'noop', 'final']);
    expect(responseSchema([], 100)).toMatchObject({ properties: { kind: { const: 'final' }, text: { maxLength: 100 } } });
  });
});

describe('parseTurn', () => {
  it('accepts a final answer and a valid tool call', () => {
    expect(parseTurn('{"kind":"final","text":"done"}', 'eogToken', tools, 2, 100)).toEqual({ text: 'done', toolCalls: [], finishReason: 'stop' });
    const call = parseTurn('{"kind":"tool_call","name":"book","arguments":{"city":"Oslo","nights":2,"unit":"c","tags":["a"]}}', 'stopGenerationTrigger', tools, 3, 100);
    expect(call).toEqual({ text: '', finishReason: 'tool', toolCalls: [{ id: 'call_3_0', name: 'book', arguments: { city: 'Oslo', nights: 2, unit: 'c', tags: ['a'] } }] });
  });

  it('refuses unknown tools, bad arguments, extra keys and non-JSON', () => {
    expect(() => parseTurn('{"kind":"tool_call","name":"rm_rf","arguments":{}}', 'eogToken', tools, 0, 100)).toThrow(/not one of the task's tools/);
    expect(() => parseTurn('{"kind":"tool_call","name":"book","arguments":{"nights":1.5}}', 'eogToken', tools, 0, 100)).toThrow(/nights/);
    expect(() => parseTurn('{"kind":"tool_call","name":"book","arguments":{"unit":"k"}}', 'eogToken', tools, 0, 100)).toThrow(/unit/);
    expect(() => parseTurn('{"kind":"tool_call","name":"book","arguments":{"city":"x","evil":1}}', 'eogToken', tools, 0, 100)).toThrow(/arguments/);
    expect(() => parseTurn('{"kind":"final","text":"hi","more":1}', 'eogToken', tools, 0, 100)).toThrow(/expected shape/);
    expect(() => parseTurn('{"kind":"final","text":"' + 'x'.repeat(401) + '"}', 'eogToken', tools, 0, 100)).toThrow(/expected shape/);
    expect(() => parseTurn(`{"kind":"tool_call","name":"book","arguments":{"city":"${'x'.repeat(801)}"}}`, 'eogToken', tools, 0, 100)).toThrow(/city/);
    expect(() => parseTurn('<tool_call>book</tool_call>', 'eogToken', tools, 0, 100)).toThrow(/not valid JSON/);
  });

  it('keeps the text of an answer cut by the token cap, and reports the cap', () => {
    expect(parseTurn('{"kind": "final", "text": "half a sent\\u00', 'maxTokens', tools, 0, 100)).toEqual({ text: 'half a sent', toolCalls: [], finishReason: 'length' });
    expect(parseTurn('{"kind":"tool_call","name":"bo', 'maxTokens', tools, 0, 100)).toEqual({ text: '', toolCalls: [], finishReason: 'length' });
  });
});

describe('toChatHistory', () => {
  it('puts instructions in the system message, tool results in user turns, and ends with an open model turn', () => {
    const history = toChatHistory(
      [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Book Oslo' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'book', arguments: '{"city":"Oslo"}' } }] },
        { role: 'tool', tool_call_id: 'c1', name: 'book', content: 'ok' },
      ],
      tools,
    );
    expect(history.map((item) => item.type)).toEqual(['system', 'user', 'model', 'user', 'model']);
    expect(history[0]).toMatchObject({ text: expect.stringContaining('Be brief.') });
    expect(history[0]).toMatchObject({ text: expect.stringContaining('- book') });
    expect(history[2]).toEqual({ type: 'model', response: ['{"kind":"tool_call","name":"book","arguments":{"city":"Oslo"}}'] });
    expect(history[3]).toEqual({ type: 'user', text: 'Result of tool book: ok' });
    expect(history[4]).toEqual({ type: 'model', response: [] });
  });
});
