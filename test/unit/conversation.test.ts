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
