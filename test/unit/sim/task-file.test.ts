// Task files: good ones parse, bad ones are refused with every bad line's number; rows files become pinned tasks.
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
});
