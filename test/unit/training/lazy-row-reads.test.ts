// The selectors' row checks write a tool result out as JSON only when a check needs its text: the garbled-result
// test looks for the word first, the behavior signature writes earlier results only for an argument not in the
// prompt, and the conversation the checks read writes a tool turn's content when it is read. Each must answer as
// the eager reading did.
import { describe, expect, it } from 'vitest';
import { conversation } from '../../../shared/schema/conversation';
import { pyDumps } from '../../../shared/schema/py-json';
import { pyReprString } from '../../../shared/training/py-repr';
import { garbledBlob } from '../../../shared/training/reply-checks';
import { behaviorSignature } from '../../../shared/training/row-gates';

const eagerGarbled = (data: Record<string, unknown>): boolean => {
  const blob = pyDumps(data).toLowerCase();
  return blob.includes('<<garbled') || blob.includes('garbled resp');
};

describe('the garbled-result check', () => {
  const results: Array<Record<string, unknown>> = [
    { status: 'ok', note: 'fine' },
    { status: 'ok', body: '<<GARBLED>>' },
    { status: 'ok', body: 'Garbled Response from upstream' },
    { status: 'ok', body: 'garbled\nresponse' },
    { status: 'ok', body: 'garbled"resp' },
    { status: 'ok', body: 'garbled' },
    { status: 'ok', 'garbled resp': 1 },
    { status: 'ok', nested: [{ deep: ['x', { t: 'a <<garbled b' }] }] },
    { status: 'ok', body: 'caf\u00e9 garbled r\u00e9sp' },
    { status: 'ok', body: '\u212a garbled resp' },
    { status: 'ok', n: 1.5, flag: true, none: null },
  ];
  it.each(results.map((r) => [JSON.stringify(r), r]))('agrees with the JSON text for %s', (_name, result) => {
    expect(garbledBlob(result)).toBe(eagerGarbled(result));
  });
});

describe("repr() of a string", () => {
  it.each([
    ["it's", `"it's"`],
    ['a"b', `'a"b'`],
    [`a'b"c`, `'a\\'b"c'`],
    ['back\\slash', `'back\\\\slash'`],
    ['plain', `'plain'`],
    ['\x7f', `'\\x7f'`],
    ['caf\u00e9', `'caf\u00e9'`],
    ['', `''`],
  ])('repr(%j) is %s', (text, repr) => {
    expect(pyReprString(text)).toBe(repr);
  });
});

describe('the behavior signature', () => {
  const row = (later: string) => ({
    prompt: 'hello',
    steps: [
      { tool: 'a', arguments: { x: 'foo' }, result: { v: 'foo' } },
      { tool: 'b', arguments: { y: later }, result: { status: 'ok' } },
    ],
    final_text: '',
  });
  // sha256(repr(payload))[:12] as Python computes it for these two payloads.
  it('reads an argument found in an earlier result as derived', () => {
    expect(behaviorSignature(row('FOO'))).toBe('e1b7d5b75559');
  });
  it('reads one found nowhere as invented', () => {
    expect(behaviorSignature(row('bar'))).toBe('72431dedf610');
  });
});

describe('the conversation the checks read', () => {
  it('gives each turn as the written conversation does, tool content included when read', () => {
    const row = {
      prompt: 'p',
      steps: [{ tool: 't', arguments: { a: 1 }, result: { status: 'ok', n: 2 } }, { tool: 'u', result: 'plain text' }, { text: 'said' }],
      final_text: 'done.',
    };
    const lazy = conversation(row, true);
    const eager = conversation(row);
    expect(lazy.map((m) => [m.role, m.content, m.tool_calls ?? null, m.name ?? null])).toEqual(eager.map((m) => [m.role, m.content, m.tool_calls ?? null, m.name ?? null]));
    expect(lazy[2].content).toBe('{"status": "ok", "n": 2}');
  });
});
