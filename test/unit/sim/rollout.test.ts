// The rollout loop with a scripted agent: steps, text on the first tool step, usage, max turns, errors, usability.
import { describe, expect, it } from 'vitest';
import { taskSchema } from '../../../shared/schema/task';
import type { Agent, TurnRequest, TurnResult } from '../../../main/agents/agent-types';
import { hasToolMarkup, runRollout, unusableReason } from '../../../main/sim/rollout';
import { parseTaskSet } from '../../../main/sim/task-file';

const task = taskSchema.parse({
  scenario_id: 'r1',
  prompt: 'Where is ORD-1?',
  system_prompt: 'You are a support agent.',
  tools: [{ type: 'function', function: { name: 'get_order' } }, { type: 'function', function: { name: 'notify' } }],
  world: { get_order: [{ when: { order_id: 'ORD-1' }, result: { state: 'shipped' } }], notify: [{ result: 'sent' }] },
  faults: [{ tool: 'notify', mode: 'error' }],
  reference: 'shipped',
  category: 'orders',
});

function scripted(turns: Array<TurnResult | Error>, seen: TurnRequest[] = []): Agent {
  return {
    modelVersion: 'scripted',
    sampling: { temperature: 0 },
    async turn(request) {
      seen.push({ ...request, messages: [...request.messages] });
      const next = turns[Math.min(seen.length - 1, turns.length - 1)];
      if (next instanceof Error) throw next;
      return next;
    },
    async close() {},
  };
}

const options = { rolloutIndex: 2, evalRun: 0, runs: 1, seed: 9, attemptSeed: 9, maxTurns: 6, signal: new AbortController().signal };

describe('runRollout', () => {
  it('records tool steps with the turn text on the first one, answers from the world and faults, and builds a row', async () => {
    const seen: TurnRequest[] = [];
    const agent = scripted(
      [
        {
          text: 'Checking.',
          toolCalls: [
            { id: 'a', name: 'get_order', arguments: { order_id: 'ORD-1' } },
            { id: 'b', name: 'notify', arguments: {} },
          ],
          usage: { input_tokens: 10, output_tokens: 3 },
        },
        { text: 'It has shipped.', toolCalls: [], usage: { input_tokens: 20, output_tokens: 4 } },
      ],
      seen,
    );
    const { row, unusable } = await runRollout(agent, task, options);
    expect(unusable).toBeNull();
    expect(row.steps).toEqual([
      { tool: 'get_order', arguments: { order_id: 'ORD-1' }, result: { state: 'shipped' }, text: 'Checking.', input_tokens: 10, output_tokens: 3 },
      { tool: 'notify', arguments: {}, result: { status: 'error', reason: 'notify failed: internal error' } },
      { text: 'It has shipped.', input_tokens: 20, output_tokens: 4 },
    ]);
    expect(row).toMatchObject({
      schema_version: '1',
      scenario_id: 'r1',
      rollout_index: 2,
      final_text: 'It has shipped.',
      finish_reason: 'stop',
      usage: { input_tokens: 30, output_tokens: 7 },
      model_version: 'scripted',
      sampling: { temperature: 0 },
      faults: { notify: { mode: 'error' } },
      privileged: { reference: 'shipped' },
      category: 'orders',
      reward: null,
      seed: 9,
    });
    expect((row.lineage as Record<string, unknown>).system_prompt_chars).toBe(24);
    expect(row.policy_version).toBe(`scripted@${String((row.lineage as Record<string, unknown>).system_prompt_sha)}`);
    // The second turn saw the system prompt, the ask, the assistant tool-call turn and both tool results.
    expect(seen[1].messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool']);
    expect(seen[1].messages[3]).toMatchObject({ role: 'tool', tool_call_id: 'a', content: '{"state":"shipped"}' });
    expect((row.messages as Array<{ role: string }>).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
  });

  it('stops at max turns with the last spoken line', async () => {
    const agent = scripted([{ text: 'Looking again.', toolCalls: [{ id: 'x', name: 'get_order', arguments: { order_id: 'ORD-1' } }] }]);
    const { row } = await runRollout(agent, task, { ...options, maxTurns: 3 });
    expect((row.steps as unknown[]).length).toBe(3);
    expect(row.final_text).toBe('Looking again.');
  });

  it('turns an agent error into the SDK sentinel, unusable as agent_error', async () => {
    const { row, unusable, error } = await runRollout(scripted([new TypeError('boom')]), task, options);
    expect(row.final_text).toBe('<agent error: TypeError: boom>');
    expect(row.steps).toEqual([]);
    expect(row.finish_reason).toBe('error');
    expect(unusable).toBe('agent_error');
    expect(error).toBeInstanceOf(TypeError);
  });

  it('stamps eval_run only when runs > 1', async () => {
    const agent = scripted([{ text: 'ok', toolCalls: [] }]);
    const { row } = await runRollout(agent, task, { ...options, runs: 3, evalRun: 1 });
    expect(row.lineage).toMatchObject({ eval_run: 1, replayed_from_run: 0 });
  });
});

describe('usability (sdk-semantics §3.5)', () => {
  it('flags empty replies, agent errors and tool markup', () => {
    expect(unusableReason({ final_text: '   ', steps: [] })).toBe('empty_reply');
    expect(unusableReason({ final_text: '<Agent Error: x>', steps: [] })).toBe('agent_error');
    expect(unusableReason({ final_text: 'ok', steps: [{ text: 'a <tool_call>{}' }] })).toBe('tool_markup');
    expect(unusableReason({ final_text: 'fine', steps: [] })).toBeNull();
    expect(hasToolMarkup('{"name": "x", "description": "y", "parameters": {}}')).toBe(true);
    expect(hasToolMarkup('{"name": "x"} and nothing else')).toBe(false);
  });
});

describe("a task's own extra keys", () => {
  it('ride to the judge in row.privileged beside the reference, and come back when the rows are replayed as tasks', async () => {
    const withExtras = taskSchema.parse({ scenario_id: 'x1', prompt: 'Refund ORD-3?', reference: 'RF-1', expected: { refund_id: 'RF-1' }, metadata: { difficulty: 'hard' } });
    const agent = scripted([{ text: 'Refunded as RF-1.', toolCalls: [], finishReason: 'stop' }]);
    const { row } = await runRollout(agent, withExtras, options);
    expect(row.privileged).toEqual({ reference: 'RF-1', expected: { refund_id: 'RF-1' }, metadata: { difficulty: 'hard' } });
    expect(row).not.toHaveProperty('expected');
    const replayed = parseTaskSet(JSON.stringify(row), '(rows)');
    expect(replayed.tasks[0]).toMatchObject({ reference: 'RF-1', expected: { refund_id: 'RF-1' }, metadata: { difficulty: 'hard' } });
  });
});
