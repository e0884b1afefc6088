import { describe, expect, it } from 'vitest';
import { detectShape, normalizeRow } from '../../shared/schema/import-shapes';
import { rowSchema } from '../../shared/schema/row';
import { parseRowLine } from '../../main/datasets/parse-row-line';
import { rowProblem } from '../../main/datasets/row-check';

describe('detectShape (sdk-semantics §1.8 order)', () => {
  it('recognises each legacy shape', () => {
    expect(detectShape({ schema_version: '1' })).toBe('v1');
    expect(detectShape({ steps_json: '[]', prompt: 'p' })).toBe('hf_flat');
    expect(detectShape({ messages: [{ role: 'user', content: 'q' }] })).toBe('training');
    expect(detectShape({ scenario_id: 's', prompt: 'p' })).toBe('engine');
    expect(detectShape({ tool_trace: [], prompt: 'p' })).toBe('platform_pull');
    expect(detectShape({ conversation_id: 'c', prompt: 'p' })).toBe('otel');
    expect(detectShape({ question: 'q' })).toBe('loose');
  });
});

describe('normalizeRow (load_traces spellings)', () => {
  it('reads question/output and turns a boolean label into 0/1', () => {
    const result = normalizeRow({ question: 'What is 2+2?', output: '4', reward: true });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.row).toMatchObject({ schema_version: '1', prompt: 'What is 2+2?', final_text: '4', reward: 1, steps: [] });
  });

  it('drops a label that is not exactly 0 or 1 (no threshold)', () => {
    const result = normalizeRow({ prompt: 'p', answer: 'a', reward: 0.7 });
    expect(result.ok && 'reward' in result.row).toBe(false);
  });

  it('renames tool_trace input/output into arguments/result', () => {
    const result = normalizeRow({ prompt: 'p', final: 'done', tool_trace: [{ tool: 'search', input: { q: 'x' }, output: ['hit'] }] });
    expect(result.ok && result.row.steps).toEqual([{ tool: 'search', arguments: { q: 'x' }, result: ['hit'] }]);
  });

  it('converts OpenAI messages: calls bound to results by id, text after the calls', () => {
    const result = normalizeRow({
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'weather in Paris?' },
        {
          role: 'assistant',
          content: 'Let me check.',
          tool_calls: [
            { id: 'a', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
            { id: 'b', type: 'function', function: { name: 'time', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'b', content: '"12:00"' },
        { role: 'tool', tool_call_id: 'a', content: '{"temp": 21}' },
        { role: 'assistant', content: 'It is 21 degrees.' },
      ],
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.row.prompt).toBe('weather in Paris?');
    expect(result.row.final_text).toBe('It is 21 degrees.');
    expect(result.row.steps).toEqual([
      { user: 'weather in Paris?' },
      { tool: 'weather', arguments: { city: 'Paris' }, result: { temp: 21 } },
      { tool: 'time', arguments: {}, result: '12:00' },
      { text: 'Let me check.' },
      { text: 'It is 21 degrees.' },
    ]);
  });

  it('binds Anthropic tool_result blocks, marking errors', () => {
    const result = normalizeRow({
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'u1', name: 'fetch', input: { url: 'x' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'u1', content: '{"code": 500}', is_error: true }] },
        { role: 'assistant', content: [{ type: 'text', text: 'It failed.' }] },
      ],
    });
    expect(result.ok && result.row.steps).toEqual([
      { user: 'go' },
      { tool: 'fetch', arguments: { url: 'x' }, result: { code: 500, error: true, status: 'error' } },
      { text: 'It failed.' },
    ]);
  });

  it('keeps unknown keys and refuses a row with nothing to ask', () => {
    const kept = normalizeRow({ prompt: 'p', final_text: 'f', custom: { deep: [1] } });
    expect(kept.ok && kept.row.custom).toEqual({ deep: [1] });
    expect(normalizeRow({ foo: 1 }).ok).toBe(false);
    expect(normalizeRow([1, 2]).ok).toBe(false);
    expect(normalizeRow({}).ok).toBe(false);
  });
});

describe('row v1 schema', () => {
  it('keeps unknown keys', () => {
    const parsed = rowSchema.parse({ schema_version: '1', prompt: 'p', steps: [], final_text: '', anything: { a: 1 } });
    expect(parsed.anything).toEqual({ a: 1 });
  });

  it('refuses a boolean reward with a message that says so', () => {
    const line = parseRowLine(JSON.stringify({ schema_version: '1', prompt: 'p', steps: [], final_text: '', reward: true }), rowProblem);
    expect(line.ok).toBe(false);
    if (!line.ok) expect(line.message).toMatch(/reward is a boolean/);
  });

  it('refuses an integer schema_version and a missing final_text, naming the field', () => {
    const versioned = parseRowLine(JSON.stringify({ schema_version: 1, prompt: 'p', steps: [], final_text: '' }), rowProblem);
    expect(!versioned.ok && versioned.message).toMatch(/schema_version/);
    const noFinal = parseRowLine(JSON.stringify({ schema_version: '1', prompt: 'p', steps: [] }), rowProblem);
    expect(!noFinal.ok && noFinal.message).toMatch(/final_text/);
  });

  it('reports a line that is not JSON', () => {
    const line = parseRowLine('{"prompt": ', rowProblem);
    expect(!line.ok && line.message).toMatch(/not valid JSON/);
  });
});

describe('export scrubbing (sdk-semantics §1.9)', () => {
  it('removes the privileged keys at any depth and leaves other rows byte for byte', async () => {
    const { exportRowJson } = await import('../../shared/schema/export-row');
    const clean = '{"schema_version":"1","prompt":"p","steps":[],"final_text":"f","note":"refers to the manual"}';
    expect(exportRowJson(clean)).toBe(clean);
    const withBlock = JSON.stringify({
      schema_version: '1',
      prompt: 'p',
      privileged: { reference: 'secret' },
      steps: [{ tool: 't', arguments: { q: 1, rubric: 'x' }, result: [{ hidden_state: 1, ok: true }] }],
      final_text: 'f',
    });
    expect(JSON.parse(exportRowJson(withBlock))).toEqual({ schema_version: '1', prompt: 'p', steps: [{ tool: 't', arguments: { q: 1 }, result: [{ ok: true }] }], final_text: 'f' });
  });
});
