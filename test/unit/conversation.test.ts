import { describe, expect, it } from 'vitest';
import { conversation, pythonJsonDumps, replyLength } from '../../shared/schema/conversation';

describe('conversation(row) (stats-semantics §3.4)', () => {
  it('rebuilds messages from prompt, tool steps and final text', () => {
    const messages = conversation({
      prompt: 'refund order 7',
      steps: [{ tool: 'refund', arguments: { id: 7 }, result: { ok: true, amount: 1.5 }, text: '' }],
      final_text: 'Refunded.',
    });
    expect(messages).toEqual([
      { role: 'user', content: 'refund order 7' },
      { role: 'assistant', content: '', tool_calls: [{ name: 'refund', arguments: { id: 7 } }] },
      { role: 'tool', name: 'refund', content: '{"ok": true, "amount": 1.5}' },
      { role: 'assistant', content: 'Refunded.' },
    ]);
  });

  it('fills a blank last assistant turn, and does not repeat a reply already said', () => {
    const filled = conversation({ prompt: 'p', steps: [{ text: ' ' }], final_text: 'done' });
    expect(filled.at(-1)).toEqual({ role: 'assistant', content: 'done' });
    const said = conversation({ prompt: 'p', steps: [{ text: 'done' }, { user: 'thanks' }], final_text: 'done' });
    expect(said.filter((m) => m.content === 'done')).toHaveLength(1);
    expect(said.at(-1)?.role).toBe('assistant');
  });

  it('keeps trailing user turns after an agent error', () => {
    const messages = conversation({ prompt: 'p', steps: [{ user: 'more?' }], final_text: '<agent error: ValueError: x>' });
    expect(messages.map((m) => m.role)).toEqual(['user', 'user', 'assistant']);
  });
});

describe('reply_length (stats-semantics §3.3)', () => {
  it('equals len(final_text) for rows with tool steps and no spoken text', () => {
    expect(replyLength({ prompt: 'p', steps: [{ tool: 't', arguments: {}, result: 'r', text: '' }], final_text: 'héllo ✓' })).toBe(7);
  });

  it('counts every assistant message of carried messages, plus a final text said nowhere', () => {
    const row = {
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'abc' },
        { role: 'assistant', content: null },
        { role: 'assistant', content: 'de' },
      ],
      final_text: 'xyz',
    };
    expect(replyLength(row)).toBe(3 + 0 + 2 + 3);
    expect(replyLength({ ...row, final_text: 'de' })).toBe(5);
  });

  it('counts code points, as Python does', () => {
    expect(replyLength({ prompt: 'p', steps: [], final_text: '😀😀' })).toBe(2);
  });
});

describe('pythonJsonDumps', () => {
  it("uses Python's default separators and ASCII escapes", () => {
    expect(pythonJsonDumps({ a: [1, 'é'], b: null })).toBe('{"a": [1, "\\u00e9"], "b": null}');
  });
});

describe('replyLength agrees with the conversation it is defined on', () => {
  /** §3.3 read literally: the assistant turns of conversation(row), plus the final text when it is not the last. */
  function replyLengthFromConversation(row: Record<string, unknown>): number {
    const isObj = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
    const carried = Array.isArray(row.messages) ? row.messages.filter(isObj) : [];
    const messages: Array<{ role?: unknown; content?: unknown }> = carried.length > 0 ? carried : conversation(row);
    let total = 0;
    let last: string | undefined;
    for (const message of messages) {
      if (message.role !== 'assistant') continue;
      const content = message.content === null || message.content === undefined ? '' : typeof message.content === 'string' ? message.content : pythonJsonDumps(message.content);
      total += [...content].length;
      last = content;
    }
    // hygiene.reply_length reads str(final_text or ""): a number there is its digits.
    const finalText = typeof row.final_text === 'string' ? row.final_text : row.final_text ? String(row.final_text) : '';
    return finalText !== '' && finalText !== last ? total + [...finalText].length : total;
  }

  it('on thousands of generated rows: openers, user turns, tool steps, blank texts, agent errors, carried messages', () => {
    let seed = 12345;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const pick = <T,>(options: T[]): T => options[Math.floor(random() * options.length)];
    const texts = [undefined, '', ' ', 'x', 'done 😀', 'final'];
    for (let n = 0; n < 5000; n++) {
      const steps = Array.from({ length: Math.floor(random() * 5) }, () =>
        pick<unknown>([{ user: pick(['', 'u', ' ']) }, { tool: pick(['t', '']), text: pick(texts), result: { ok: 1 } }, { text: pick(texts) }, 'not a step', null]),
      );
      const row: Record<string, unknown> = {
        opener: pick([undefined, '', 'hello', 5]),
        prompt: pick([undefined, '', 'p']),
        steps,
        final_text: pick([undefined, '', ' ', 'x', 'final', '<agent error: boom>', 7]),
      };
      if (random() < 0.2) row.messages = [{ role: 'assistant', content: pick(['a', '', null, { k: 'é' }]) }, { role: 'user', content: 'u' }, pick<unknown>([null, { role: 'assistant', content: 'final' }])];
      expect(replyLength(row), JSON.stringify(row)).toBe(replyLengthFromConversation(row));
    }
  });
});
