// The TRL shapes and the loss mask, on the cases that broke real training runs (the SDK's own test cases for them,
// restated): a prompt string beside messages, full conversations on both DPO sides, arguments as strings, the mask.
import { describe, expect, it } from 'vitest';
import { buildPreferencePairs, exportDatasetRows, exportPreferenceRows, RoundtripCheck, rowTurns, toTrl } from '../../../shared/training/index';

const POLICY = 'Read before you write. Say what you did.';
const TOOLS = [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } } }];
type Obj = Record<string, unknown>;

const row = (reward: number, final: string): Obj => ({
  prompt: 'read the handler file',
  reward,
  judge_status: 'ok',
  model_version: 'student',
  steps: [{ tool: 'read_file', arguments: { path: 'src/app/handlers.py' }, result: { ok: true } }],
  final_text: final,
});
const rows = () => [row(1, 'Read it; the bug is on line 40.'), row(0, 'I could not find anything.')];

const multiTurn = (): Obj => ({
  prompt: 'where is order 4412',
  reward: 1,
  messages: [
    { role: 'user', content: 'where is order 4412' },
    { role: 'assistant', content: 'Let me check.', tool_calls: [{ function: { name: 'read_file', arguments: { path: 'orders/4412' } } }] },
    { role: 'tool', content: '{"status": "shipped"}' },
    { role: 'assistant', content: 'It shipped.' },
  ],
});

const pair = (chosen: Obj[], rejected: Obj[]): Obj => {
  const ask = [{ role: 'user', content: 'where is order 4412' }];
  return { prompt: 'where is order 4412', chosen: { messages: [...ask, ...chosen] }, rejected: { messages: [...ask, ...rejected] } };
};
const lookup = (id: string): Obj => ({ role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup_order', arguments: JSON.stringify({ order_id: id }) } }] });
const shipped = (content = '{"status": "shipped"}'): Obj => ({ role: 'tool', tool_call_id: 'c1', content });
const says = (content: string): Obj => ({ role: 'assistant', content });

describe('SFT rows', () => {
  it('OpenAI rows keep the prompt string and JSON-string arguments; TRL rows move the ask to prompt_text', () => {
    const openai = exportDatasetRows(rows(), { system_prompt: POLICY, tools: TOOLS, validate: false }).rows[0];
    expect(typeof openai.prompt).toBe('string');
    const messages = openai.messages as Obj[];
    expect(typeof ((messages[2].tool_calls as Obj[])[0].function as Obj).arguments).toBe('string');
    const trl = exportDatasetRows(rows(), { system_prompt: POLICY, tools: TOOLS, format: 'trl', validate: false }).rows;
    for (const r of trl) {
      expect(r).not.toHaveProperty('prompt');
      expect(r).not.toHaveProperty('loss_mask');
      expect(r.prompt_text).toBe('read the handler file');
      expect((r.messages as Obj[])[0]).toEqual({ role: 'system', content: POLICY });
      expect((((r.messages as Obj[])[2].tool_calls as Obj[])[0].function as Obj).arguments).toEqual({ path: 'src/app/handlers.py' });
    }
  });

  it('the loss mask is 1 on agent turns; the report counts what each format trains', () => {
    const openai = exportDatasetRows([multiTurn()], { system_prompt: POLICY, tools: TOOLS });
    expect(openai.rows[0].loss_mask).toEqual([0, 0, 1, 0, 1]);
    expect(openai.report.mask_mode).toBe('assistant');
    expect([openai.report.trained_messages, openai.report.masked_messages]).toEqual([2, 3]);
    const trl = exportDatasetRows([multiTurn()], { system_prompt: POLICY, tools: TOOLS, format: 'trl' });
    expect(trl.report.mask_mode).toMatch(/^TRL trains on every token/);
    expect([trl.report.trained_messages, trl.report.masked_messages]).toEqual([5, 0]);
    const final = exportDatasetRows([multiTurn()], { system_prompt: POLICY, tools: TOOLS, format: 'trl', mask_mode: 'final' });
    const r = final.rows[0];
    expect((r.prompt as Obj[]).map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(r.completion).toEqual([{ role: 'assistant', content: 'It shipped.' }]);
    expect([final.report.trained_messages, final.report.masked_messages]).toEqual([1, 4]);
    expect(final.report.tool_call_roundtrip).toMatchObject({ checked: 1, invalid: 0, encoding: 'dict' });
    const unrolled = exportDatasetRows([multiTurn()], { system_prompt: POLICY, format: 'trl', unroll: true });
    expect(unrolled.rows.map((x) => (x.prompt as unknown[]).length)).toEqual([2, 4]);
  });

  it('a TRL completion row with no assistant turn is dropped and counted', () => {
    const empty = { ...multiTurn(), messages: [{ role: 'user', content: 'hello?' }] };
    const out = exportDatasetRows([empty, multiTurn()], { format: 'trl', mask_mode: 'final', validate: false });
    expect(out.report.n).toBe(1);
    expect(out.report.no_completion_dropped).toBe(1);
    expect(out.report.warnings?.some((w) => w.includes('no assistant turn'))).toBe(true);
  });

  it('the round-trip gate names the encoding it checked', () => {
    const wire = exportDatasetRows(rows(), { system_prompt: POLICY, tools: TOOLS, validate: false }).rows;
    const asJson = new RoundtripCheck('openai');
    const asDict = new RoundtripCheck('trl');
    const trlGate = new RoundtripCheck('trl');
    for (const r of wire) {
      asJson.add(rowTurns(r));
      asDict.add(rowTurns(r));
    }
    for (const r of toTrl(wire, 'training')) trlGate.add(rowTurns(r));
    expect(asJson.report()).toMatchObject({ encoding: 'json_string', invalid: 0 });
    expect(asDict.report().invalid).toBe(asDict.report().checked);
    expect(trlGate.report()).toMatchObject({ encoding: 'dict', invalid: 0, checked: asJson.report().checked });
  });

  it('refuses an unknown format or mask mode', () => {
    expect(() => exportDatasetRows(rows(), { format: 'hf' as never })).toThrow(/format must be one of/);
    expect(() => exportDatasetRows(rows(), { mask_mode: 'every' as never })).toThrow(/mask_mode must be one of/);
    expect(() => exportPreferenceRows([], { format: 'hf' as never })).toThrow(/format must be one of/);
  });
});

describe('preference rows', () => {
  it('TRL: the shared prefix is the prompt and each side the one assistant turn where they differ', () => {
    const { pairs } = buildPreferencePairs(rows());
    const out = exportPreferenceRows(pairs, { system_prompt: POLICY, format: 'trl' });
    const r = out.rows[0];
    expect((r.prompt as Obj[]).map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect((r.chosen as Obj[]).map((m) => m.role)).toEqual(['assistant']);
    expect((r.chosen as Obj[])[0].content).toBe('Read it; the bug is on line 40.');
    expect((r.rejected as Obj[])[0].content).toBe('I could not find anything.');
    expect(Number(r.margin)).toBe(1);
  });

  it('TRL: later turns are cut and counted as trl_turns_cut; a pair with no one-turn contrast is dropped', () => {
    const cut = exportPreferenceRows(
      [pair([lookup('4412'), shipped(), says('Shipped.')], [says('No idea.')]), pair([says('Shipped.')], [says('No idea.')])],
      { system_prompt: POLICY, format: 'trl' },
    );
    expect(cut.report.pairs).toBe(2);
    expect(cut.report.trl_turns_cut).toBe(1);
    const first = cut.rows[0];
    expect((first.prompt as Obj[]).map((m) => m.role)).toEqual(['system', 'user']);
    expect((((first.chosen as Obj[])[0].tool_calls as Obj[])[0].function as Obj).name).toBe('lookup_order');
    const noContrast = exportPreferenceRows(
      [
        pair([lookup('4412'), shipped()], [lookup('4412'), shipped('{"status": "lost"}')]),
        pair([lookup('4412'), shipped(), says('Shipped.')], [lookup('4412'), shipped(), says('Shipped.')]),
        pair([lookup('4412'), shipped(), says('Shipped.')], [lookup('4412')]),
      ],
      { system_prompt: POLICY, format: 'trl', validate: false },
    );
    expect(noContrast.report).toMatchObject({ pairs: 0, no_completion_dropped: 3 });
    expect(noContrast.report).not.toHaveProperty('trl_turns_cut');
    expect(() => exportPreferenceRows([pair([], [])], { format: 'trl' })).toThrow(/no_preference_pairs/);
  });

  it('OpenAI: the ask as a string and both whole conversations', () => {
    const { pairs } = buildPreferencePairs(rows());
    const r = exportPreferenceRows(pairs, { system_prompt: POLICY }).rows[0];
    expect(typeof r.prompt).toBe('string');
    expect((r.chosen as Obj[])[0].role).toBe('system');
  });
});
