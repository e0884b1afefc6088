// The TRL shape takes a wire call's arguments value from the call itself (DECODED_ARGUMENTS) instead of parsing the
// text just written from it. On tricky arguments, the rows it gives must be the ones parsing the text gives: the
// same calls with the tag stripped go down the parsing path and are the reference.
import { describe, expect, it } from 'vitest';
import { parsePyJson, pyDumps, pyFloat } from '../../../shared/schema/py-json';
import { convertMessages, DECODED_ARGUMENTS, type WireMessage } from '../../../shared/training/wire';
import { trlMessages } from '../../../shared/training/trl';

const ARGUMENTS: unknown[] = [
  { order_id: 'ORD-1', qty: 2 },
  { t: pyFloat(1), big: pyFloat(1e16), neg: pyFloat(-0), tiny: 1e-7, half: 0.5, huge: 1e21, zero: -0 },
  { 'caf\u00e9': 'na\u00efve \u2028 \ud83d\ude00 \ud800', quote: 'say "1.0", \\ then', nested: { list: [1, [2, { x: null }], true, false] } },
  { b: 1, 2: 'an index-like key', a: { 10: 'x', 9: 'y' } },
  { bad: NaN },
  { inf: [Infinity] },
  [1, 2, 'three'],
  5,
  true,
  0,
  '',
  null,
  [],
  {},
  '{"already": "a JSON string", "n": 1.0}',
  JSON.stringify(JSON.stringify({ twice: 1 })),
  'not json at all',
  { when: new Date(0) },
  { nothing: undefined, something: 1 },
];

function wireRows(): WireMessage[] {
  const messages = ARGUMENTS.map((args, i) => ({ role: 'assistant', content: `call ${i}`, tool_calls: [{ id: `c${i}`, function: { name: 'f', arguments: args } }] }));
  return convertMessages(messages, { system: '', stripThink: false, maxToolOutputChars: null });
}

/** The same messages with every call's tag gone, so trlMessages parses each arguments text. */
function untagged(messages: WireMessage[]): WireMessage[] {
  return messages.map((m) => ({ ...m, ...(m.tool_calls ? { tool_calls: m.tool_calls.map((c) => ({ id: c.id, type: c.type, function: { ...c.function } })) } : {}) }));
}

describe('TRL arguments from the wire call', () => {
  it('gives the rows that parsing the arguments text gives, on tricky arguments', () => {
    const wire = wireRows();
    const tagged = wire.filter((m) => m.tool_calls?.some((c) => (c as { [DECODED_ARGUMENTS]?: unknown })[DECODED_ARGUMENTS] !== undefined)).length;
    expect(tagged).toBeGreaterThan(8); // the shortcut is taken on most of them
    const fast = trlMessages(wire);
    const careful = trlMessages(untagged(wire));
    expect(fast.length).toBe(ARGUMENTS.length);
    for (let i = 0; i < fast.length; i++) {
      expect(pyDumps(fast[i]), `arguments ${i}`).toBe(pyDumps(careful[i]));
      expect(pyDumps(fast[i], ',', ': '), `arguments ${i}`).toBe(pyDumps(careful[i], ',', ': '));
    }
  });

  it('leaves values that would not read back the same to the parser', () => {
    const wire = wireRows();
    const tagOf = (i: number) => (wire[i].tool_calls?.[0] as { [DECODED_ARGUMENTS]?: { value: unknown } })[DECODED_ARGUMENTS];
    expect(tagOf(4)).toBeUndefined(); // NaN
    expect(tagOf(5)).toBeUndefined(); // Infinity
    expect(tagOf(16)).toBeUndefined(); // still a string after unwrapping: the TRL side unwraps again
    expect(tagOf(17)).toBeUndefined(); // a Date
    expect(tagOf(18)).toBeUndefined(); // an undefined member
    expect(tagOf(1)?.value).toBe(ARGUMENTS[1]);
    expect(tagOf(14)?.value).toEqual(parsePyJson(ARGUMENTS[14] as string)); // a JSON string, unwrapped once
    expect(tagOf(12)?.value).toEqual({}); // an empty value is written as {}
  });

  it('parses again when the arguments text was changed after the wire form was made', () => {
    const wire = wireRows();
    const call = wire[0].tool_calls?.[0] as { function: { arguments: unknown } };
    call.function.arguments = '{"order_id": "ORD-2"}';
    const [first] = trlMessages(wire) as Array<{ tool_calls: Array<{ function: { arguments: unknown } }> }>;
    expect(first.tool_calls[0].function.arguments).toEqual(parsePyJson('{"order_id": "ORD-2"}'));
  });
});
