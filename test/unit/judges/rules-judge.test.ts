// --judge FILE.json: each built-in rule, the combinators, markers, and bad files refused with paths.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadJudge } from '../../../main/judges/load-judge';
import { createRulesJudge } from '../../../main/judges/rules-judge';
import { parseJudgeRules } from '../../../shared/schema/judge-rules';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rules-judge-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const row = {
  schema_version: '1',
  prompt: 'Refund order A-1042',
  steps: [
    { tool: 'lookup_order', arguments: { order_id: 'A-1042' }, result: { status: 'shipped' } },
    { tool: 'refund', arguments: { order_id: 'A-1042', amount: 30 }, result: { status: 'ok' } },
  ],
  final_text: '```json\n{"status": "refunded", "order_id": "A-1042", "amount": 30}\n```',
};

async function rewardOf(rule: unknown, target: Record<string, unknown> = row) {
  const parsed = parseJudgeRules(rule);
  if (!parsed.ok) throw new Error(parsed.errors.join('\n'));
  return (await createRulesJudge(parsed.rules, 'rules').judge(target)).reward;
}

describe('rules judge', () => {
  it('contains and regex, on the reply or another field', async () => {
    expect(await rewardOf({ contains: 'REFUNDED' })).toBe(1);
    expect(await rewardOf({ contains: 'REFUNDED', case_sensitive: true })).toBe(0);
    expect(await rewardOf({ contains: 'A-1042', field: 'prompt' })).toBe(1);
    expect(await rewardOf({ regex: '"amount":\\s*\\d+' })).toBe(1);
    expect(await rewardOf({ regex: '^refund', flags: 'i', field: 'steps.1.tool' })).toBe(1);
    expect(await rewardOf({ regex: 'cancel' })).toBe(0);
  });

  it('tool_called with argument matches (literal or regex) and a minimum count', async () => {
    expect(await rewardOf({ tool_called: 'refund' })).toBe(1);
    expect(await rewardOf({ tool_called: 'refund', arguments: { order_id: 'A-1042', amount: 30 } })).toBe(1);
    expect(await rewardOf({ tool_called: 'refund', arguments: { amount: 31 } })).toBe(0);
    expect(await rewardOf({ tool_called: 'refund', arguments: { order_id: { regex: '^A-\\d+$' } } })).toBe(1);
    expect(await rewardOf({ tool_called: 'refund', min_times: 2 })).toBe(0);
    expect(await rewardOf({ tool_called: 'cancel' })).toBe(0);
  });

  it('json_schema on the reply (code fences stripped)', async () => {
    const schema = { type: 'object', required: ['status', 'order_id'], properties: { status: { enum: ['refunded', 'denied'] }, amount: { type: 'number', minimum: 0 }, order_id: { type: 'string', pattern: '^A-' } } };
    expect(await rewardOf({ json_schema: schema })).toBe(1);
    expect(await rewardOf({ json_schema: { ...schema, required: ['reason'] } })).toBe(0);
    expect(await rewardOf({ json_schema: { type: 'object', properties: { status: { enum: ['denied'] } } } })).toBe(0);
    expect(await rewardOf({ json_schema: { type: 'array', items: { type: 'integer' } } }, { ...row, final_text: '[1, 2, 3.5]' })).toBe(0);
    expect(await rewardOf({ json_schema: { type: 'array', items: { type: 'integer' } } }, { ...row, final_text: '[1, 2, 3]' })).toBe(1);
    expect(await rewardOf({ json_schema: { type: 'object' } }, { ...row, final_text: 'Refunded!' })).toBe(0);
    expect(await rewardOf({ json_schema: { type: 'object', additionalProperties: false, properties: { status: {} } } })).toBe(0);
  });

  it('all, any and not combine, and the reason says which check decided', async () => {
    expect(await rewardOf({ all: [{ tool_called: 'lookup_order' }, { tool_called: 'refund' }, { not: { contains: 'sorry' } }] })).toBe(1);
    expect(await rewardOf({ all: [{ tool_called: 'lookup_order' }, { contains: 'sorry' }] })).toBe(0);
    expect(await rewardOf({ any: [{ contains: 'sorry' }, { regex: 'refunded' }] })).toBe(1);
    expect(await rewardOf({ any: [{ contains: 'sorry' }, { tool_called: 'cancel' }] })).toBe(0);
    expect(await rewardOf({ not: { not: { tool_called: 'refund' } } })).toBe(1);
    const parsed = parseJudgeRules({ name: 'refund_policy', rule: { all: [{ tool_called: 'lookup_order' }, { contains: 'sorry' }] }, markers: { looked_up: { tool_called: 'lookup_order' }, apologized: { contains: 'sorry' } } });
    if (!parsed.ok) throw new Error(parsed.errors.join());
    const verdict = await createRulesJudge(parsed.rules, parsed.rules.name!).judge(row);
    expect(verdict).toMatchObject({ reward: 0, judge_status: 'ok', judge_name: 'refund_policy', reason: 'final_text does not contain "sorry"', markers: { looked_up: 1, apologized: 0 } });
    expect(verdict.judge_meta).toEqual({ scorer_kind: 'rule' });
  });

  it('refuses a bad rules file with every problem and its path inside the file', async () => {
    const file = path.join(dir, 'bad.json');
    fs.writeFileSync(file, JSON.stringify({ rule: { all: [{ contains: 'x' }, { regex: '(' }, { any: [] }, { tool_called: 'refund', arguments: { id: 1 }, extra: true }, { contains: 'a', regex: 'b' }, { json_schema: { type: 'objekt' } }] } }));
    const attempt = loadJudge(file);
    await expect(attempt).rejects.toThrow(/bad\.json: rule\.all\[1\]\.regex: not a valid regular expression/);
    await expect(loadJudge(file)).rejects.toThrow(/rule\.all\[2\]\.any: must be a non-empty list/);
    await expect(loadJudge(file)).rejects.toThrow(/rule\.all\[3\]: Unrecognized key: "extra"/);
    await expect(loadJudge(file)).rejects.toThrow(/rule\.all\[4\]: has contains and regex/);
    await expect(loadJudge(file)).rejects.toThrow(/rule\.all\[5\]\.json_schema\.type/);
    const notJson = path.join(dir, 'broken.json');
    fs.writeFileSync(notJson, '{"contains": ');
    await expect(loadJudge(notJson)).rejects.toThrow(/broken\.json is not valid JSON/);
    expect(parseJudgeRules({ rule: { contains: 'x' }, weight: 2 })).toMatchObject({ ok: false, errors: [expect.stringMatching(/unknown top-level key weight/)] });
    expect(parseJudgeRules([])).toMatchObject({ ok: false });
  });

  it('loads a good file by path, named after the file, and refuses --rubric with it', async () => {
    const file = path.join(dir, 'reply-checks.json');
    fs.writeFileSync(file, JSON.stringify({ contains: 'refunded' }));
    const judge = await loadJudge('reply-checks.json', { cwd: dir });
    expect(judge.name).toBe('reply-checks');
    expect((await judge.judge(row)).reward).toBe(1);
    await expect(loadJudge(file, { rubricFile: 'r.md' })).rejects.toThrow(/--rubric only goes with an LLM judge/);
    await expect(loadJudge('judge.py')).rejects.toThrow(/unknown judge/);
  });
});
