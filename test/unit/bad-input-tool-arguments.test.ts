// Tool arguments are checked against the tool's `parameters` (JSON Schema, ajv): a call that breaks them gets the
// error result a tool server answers with; one JSON Schema validator serves the tool world and the rules judge.
import { describe, expect, it } from 'vitest';
import { createToolWorld } from '../../main/sim/tool-world';
import { checkJsonSchema } from '../../main/judges/json-schema-check';
import { taskSchema } from '../../shared/schema/task';

const parameters = {
  type: 'object',
  properties: { order_id: { type: 'string', pattern: '^ORD-[0-9]+$' }, amount: { type: 'number', minimum: 0 } },
  required: ['order_id'],
  additionalProperties: false,
};

const task = taskSchema.parse({
  scenario_id: 'a',
  prompt: 'p',
  tools: [{ type: 'function', function: { name: 'refund', parameters } }, { type: 'function', function: { name: 'free' } }],
  world: { refund: [{ result: { status: 'ok' } }], free: [{ result: 'ok' }] },
});

describe('tool arguments against parameters', () => {
  const world = createToolWorld(task);

  it('answers arguments that fit with the world entry', () => {
    expect(world.call('refund', { order_id: 'ORD-1', amount: 5 })).toEqual({ result: { status: 'ok' }, fault: null });
    expect(world.call('free', { anything: [1, 2] }).result).toBe('ok');
  });

  it('answers arguments that break the schema with an error result naming what is wrong', () => {
    expect(world.call('refund', { amount: 5 }).result).toEqual({ status: 'error', reason: 'invalid arguments for refund: $: missing required key "order_id"' });
    expect(world.call('refund', { order_id: 'ORD-1', amount: -1 }).result).toEqual({ status: 'error', reason: 'invalid arguments for refund: $.amount: must be >= 0' });
    expect(world.call('refund', { order_id: 'x', note: 1 }).result).toMatchObject({ status: 'error' });
  });

  it('runs schema patterns in linear time (a catastrophic regex answers at once)', () => {
    const started = Date.now();
    expect(checkJsonSchema('a'.repeat(40) + '!', { type: 'string', pattern: '^(a+)+$' })).toBe('$: must match pattern "^(a+)+$"');
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
