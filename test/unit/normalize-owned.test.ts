// normalizeRow(input, owned=true) stamps an engine/otel row in place: the result must be the row a copy gives,
// key by key and in the same key order, and a v1 or foreign row must come out exactly as without `owned`.
import { describe, expect, it } from 'vitest';
import { normalizeRow } from '../../shared/schema/import-shapes';

const samples: unknown[] = [
  { scenario_id: 't1', rollout_index: 0, prompt: 'p', final_text: 'f', steps: [], reward: 1 },
  { scenario_id: 't2', prompt: 'p' }, // steps and final_text filled in
  { conversation_id: 'c1', prompt: 'p', final_text: 'x', reward: 0 },
  { scenario_id: 't3', steps: [{ tool: 'a', input: { q: 1 }, output: 'r' }], final: 'done' }, // no prompt: load_traces
  { schema_version: '1', prompt: 'p', steps: [], final_text: 'f' },
  { question: 'q?', answer: 'a', reward: true },
  { messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'yo' }] },
];

describe('normalizeRow owned (in place)', () => {
  for (const [i, sample] of samples.entries()) {
    it(`sample ${i}: same row, same key order, as the copying path`, () => {
      const copied = normalizeRow(structuredClone(sample));
      const input = structuredClone(sample);
      const owned = normalizeRow(input, true);
      expect(owned).toEqual(copied);
      if (owned.ok && copied.ok) {
        expect(Object.keys(owned.row)).toEqual(Object.keys(copied.row));
        expect(JSON.stringify(owned.row)).toBe(JSON.stringify(copied.row));
      }
    });
  }

  it('does not touch an input it does not own', () => {
    const input = { scenario_id: 't1', prompt: 'p' };
    normalizeRow(input);
    expect(input).toEqual({ scenario_id: 't1', prompt: 'p' });
  });
});
