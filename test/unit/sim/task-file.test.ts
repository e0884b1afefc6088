// Task files: good ones parse, bad ones are refused with every bad line's number; rows files become pinned tasks.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTaskSet, readTaskFile, TaskFileError } from '../../../main/sim/task-file';

const fixtures = path.resolve(__dirname, '../../fixtures/tasks');

describe('task files', () => {
  it('reads the sample task set', () => {
    const set = readTaskFile(path.join(fixtures, 'support.jsonl'));
    expect(set.kind).toBe('tasks');
    expect(set.tasks.length).toBe(8);
    expect(set.tasks[3].faults).toEqual([{ tool: 'refund_order', mode: 'timeout' }]);
    expect(set.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('refuses a bad file with every bad line number and reason', () => {
    let caught: unknown;
    try {
      readTaskFile(path.join(fixtures, 'bad-tasks.jsonl'));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TaskFileError);
    const errors = (caught as TaskFileError).errors;
    expect(errors.map((e) => e.line)).toEqual([2, 3, 5, 6, 7, 8]);
    expect(errors[0].message).toMatch(/not valid JSON/);
    expect(errors[1].message).toMatch(/scenario_id is required/);
    expect(errors[3].message).toMatch(/already used on line 1/);
    expect(errors[4].message).toMatch(/fault on tool "b"/);
    expect(errors[5].message).toMatch(/faults\.0\.mode/);
    expect((caught as Error).message).toMatch(/line 8:/);
  });

  it('refuses an empty file and a missing file', () => {
    expect(() => parseTaskSet('\n\n', 'x.jsonl')).toThrow(/no tasks/);
    expect(() => readTaskFile(path.join(fixtures, 'nope.jsonl'))).toThrow(/cannot read the task file/);
  });

  it('refuses a world entry without a result and a world tool that is not declared', () => {
    const tools = [{ type: 'function', function: { name: 't' } }];
    const lines = [
      JSON.stringify({ scenario_id: 'a', prompt: 'p', tools, world: { t: [{ when: { x: 1 } }] } }),
      JSON.stringify({ scenario_id: 'b', prompt: 'p', tools, world: { u: [{ result: 1 }] } }),
    ];
    try {
      parseTaskSet(lines.join('\n'), 'w.jsonl');
      expect.unreachable();
    } catch (error) {
      const errors = (error as TaskFileError).errors;
      expect(errors[0]).toMatchObject({ line: 1, message: expect.stringMatching(/needs a "result"/) });
      expect(errors[1]).toMatchObject({ line: 2, message: expect.stringMatching(/"u", which is not in tools/) });
    }
  });

  it('reads a rows file as pinned tasks: one per distinct prompt, same scenario_id, k from the rows', () => {
    const rows = [
      { schema_version: '1', scenario_id: 's1', prompt: 'Where is ORD-1?', steps: [], final_text: 'a', rollout_index: 0, faults: { get_order: { mode: 'timeout' } } },
      { schema_version: '1', scenario_id: 's1', prompt: 'Where is ORD-1?', steps: [], final_text: 'b', rollout_index: 1 },
      { schema_version: '1', scenario_id: 's1', prompt: 'Where is ORD-1?', steps: [], final_text: 'c', rollout_index: 2 },
      { schema_version: '1', prompt: 'No id here', steps: [], final_text: 'd', privileged: { reference: 'x' } },
    ];
    const set = parseTaskSet(rows.map((r) => JSON.stringify(r)).join('\n'), 'rows.jsonl');
    expect(set.kind).toBe('rows');
    expect(set.rowsPerPrompt).toBe(3);
    expect(set.tasks.map((t) => t.scenario_id)).toEqual(['s1', expect.stringMatching(/^probe_[0-9a-f]{6}$/)]);
    expect(set.tasks[0].faults).toEqual([{ tool: 'get_order', mode: 'timeout' }]);
    expect(set.tasks[1].reference).toBe('x');
  });

  it('replays rows of a While Desk run faithfully: tools, world, a short system prompt', () => {
    const tools = [{ type: 'function', function: { name: 'get_order' } }];
    const world = { get_order: [{ result: { state: 'shipped' } }] };
    const row = {
      schema_version: '1', scenario_id: 's', prompt: 'p', steps: [], final_text: 'x', tools, world,
      lineage: { system_prompt_sha: 'abc', system_prompt_head: 'Be brief.', system_prompt_chars: 9 },
    };
    const long = { ...row, scenario_id: 't', prompt: 'q', lineage: { system_prompt_head: 'Be brief.', system_prompt_chars: 400 } };
    const set = parseTaskSet([row, long].map((r) => JSON.stringify(r)).join('\n'), 'rows.jsonl');
    expect(set.tasks[0]).toMatchObject({ tools, world, system_prompt: 'Be brief.' });
    expect(set.tasks[1].system_prompt).toBeUndefined();
  });

  it('refuses a file that mixes tasks and rows', () => {
    const text = [JSON.stringify({ scenario_id: 'a', prompt: 'p' }), JSON.stringify({ schema_version: '1', prompt: 'q', steps: [], final_text: '' })].join('\n');
    expect(() => parseTaskSet(text, 'mixed.jsonl')).toThrow(/line 2: .*keep one kind per file/);
  });

  const lineErrors = (run: () => unknown): TaskFileError['errors'] => {
    try {
      run();
    } catch (error) {
      expect(error).toBeInstanceOf(TaskFileError);
      return (error as TaskFileError).errors;
    }
    return expect.unreachable('the task set was accepted');
  };

  it('refuses world and faults on tools the task does not declare, even with no tools at all', () => {
    const lines = [
      JSON.stringify({ scenario_id: 'a', prompt: 'p', world: { get_order: [{ result: 'ok' }] } }),
      JSON.stringify({ scenario_id: 'b', prompt: 'p', tools: [], faults: [{ tool: 'refund', mode: 'timeout' }] }),
    ];
    const errors = lineErrors(() => parseTaskSet(lines.join('\n'), 'w.jsonl'));
    expect(errors).toEqual([
      { line: 1, message: expect.stringMatching(/world names tool "get_order", which is not in tools \(the task declares no tools\)/) },
      { line: 2, message: expect.stringMatching(/fault on tool "refund", which is not in tools/) },
    ]);
  });

  it('checks tool parameters as JSON Schema, naming the line and the tool', () => {
    const tool = (name: string, parameters: unknown) => ({ type: 'function', function: { name, parameters } });
    const lines = [
      { scenario_id: 'ok', prompt: 'p', tools: [tool('a', { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] })] },
      { scenario_id: 'typo', prompt: 'p', tools: [tool('good', { type: 'object' }), tool('lookup', { type: 'objekt' })] },
      { scenario_id: 'bad-bound', prompt: 'p', tools: [tool('refund', { type: 'object', properties: { amount: { type: 'number', minimum: 'zero' } } })] },
      { scenario_id: 'bad-ref', prompt: 'p', tools: [tool('r', { $ref: '#/definitions/nope' })] },
      { scenario_id: 'slow-regex', prompt: 'p', tools: [tool('s', { type: 'string', pattern: '(?=a)a' })] },
    ].map((task) => JSON.stringify(task));
    const errors = lineErrors(() => parseTaskSet(lines.join('\n'), 'p.jsonl'));
    expect(errors.map((e) => e.line)).toEqual([2, 3, 4, 5]);
    expect(errors[0].message).toMatch(/^tool "lookup": parameters is not a valid JSON Schema: type must be equal to one of the allowed values/);
    expect(errors[1].message).toMatch(/tool "refund": .*properties\/amount\/minimum must be number/);
    expect(errors[2].message).toMatch(/tool "r": .*can't resolve reference/);
    expect(errors[3].message).toMatch(/tool "s": .*pattern "\(\?=a\)a" is not a regular expression the linear-time engine reads/);
  });

  it('refuses a line that is not UTF-8 with its number, as import does', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'tasks-')), 'latin1.jsonl');
    const good = Buffer.from(JSON.stringify({ scenario_id: 'a', prompt: 'café' }) + '\n');
    const bad = Buffer.concat([Buffer.from('{"scenario_id":"b","prompt":"caf'), Buffer.from([0xe9]), Buffer.from('"}\n')]);
    fs.writeFileSync(file, Buffer.concat([good, bad, good]));
    const errors = lineErrors(() => readTaskFile(file));
    expect(errors[0]).toEqual({ line: 2, message: 'not valid UTF-8 text' });
    expect(errors[1]).toMatchObject({ line: 3, message: expect.stringMatching(/already used on line 1/) });
  });

  it('refuses nesting too deep with the line number and a plain message', () => {
    const deep = `{"scenario_id":"d","prompt":"p","reference":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const fine = JSON.stringify({ scenario_id: 'f', prompt: 'p', reference: '['.repeat(5000) });
    const errors = lineErrors(() => parseTaskSet([fine, '', deep].join('\n'), 'deep.jsonl'));
    expect(errors).toEqual([{ line: 3, message: 'nested more than 512 levels deep (arrays and objects inside each other); flatten it' }]);
  });

  it('echoes text from a bad line with control characters escaped', () => {
    const lines = [
      JSON.stringify({ scenario_id: 'a\u001b[2J', prompt: 'p' }),
      JSON.stringify({ scenario_id: 'a\u001b[2J', prompt: 'q' }),
      '{"scenario_id": "x\u001b]0;owned\u0007", "prompt": }',
      JSON.stringify({ scenario_id: 'c', prompt: 'p', world: { 'evil\u009b31m': [{ result: 1 }] } }),
    ];
    let message = '';
    try {
      parseTaskSet(lines.join('\n'), 'esc\u001b[31m.jsonl');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/line 2: scenario_id "a\\u001b\[2J" is already used/);
    expect(message).toMatch(/line 4: .*evil\\x9b31m/);
    expect(message).toContain('esc\\x1b[31m.jsonl');
    expect(message).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });

  it('compiles a tool schema repeated on every line once, not once per line', () => {
    const parameters = { type: 'object', properties: { order_id: { type: 'string', pattern: '^ORD-[0-9]+$' }, amount: { type: 'number' } }, required: ['order_id'] };
    const tools = [{ type: 'function', function: { name: 'refund', parameters } }];
    const lines = Array.from({ length: 3000 }, (_, i) => JSON.stringify({ scenario_id: `t${i}`, prompt: `Refund ORD-${i}`, tools }));
    const started = Date.now();
    expect(parseTaskSet(lines.join('\n'), 'many.jsonl').tasks.length).toBe(3000);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

