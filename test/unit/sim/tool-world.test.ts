// The tool world: entries tried in order, `when` matching, fallbacks, no-match errors and faults.
import { describe, expect, it } from 'vitest';
import { taskSchema } from '../../../shared/schema/task';
import { createToolWorld, faultPlan } from '../../../main/sim/tool-world';

const tool = (name: string) => ({ type: 'function' as const, function: { name } });

const task = taskSchema.parse({
  scenario_id: 'w',
  prompt: 'p',
  tools: [tool('get_order'), tool('refund'), tool('search'), tool('nothing')],
  world: {
    get_order: [
      { when: { order_id: 'ORD-1' }, result: { state: 'shipped' } },
      { when: { order_id: 'ORD-2', verbose: true }, result: { state: 'delivered', detail: 'left at door' } },
      { when: { order_id: 'ORD-2' }, result: { state: 'delivered' } },
    ],
    refund: [{ result: { status: 'ok' } }],
    search: [{ when: { n: 3 }, result: 'three' }, { result: 'other' }],
  },
  faults: [{ tool: 'refund', mode: 'timeout' }],
});

describe('tool world', () => {
  const world = createToolWorld(task);

  it('tries entries in order and matches every when argument', () => {
    expect(world.call('get_order', { order_id: 'ORD-1' })).toEqual({ result: { state: 'shipped' }, fault: null });
    expect(world.call('get_order', { order_id: 'ORD-2', verbose: true }).result).toEqual({ state: 'delivered', detail: 'left at door' });
    expect(world.call('get_order', { order_id: 'ORD-2' }).result).toEqual({ state: 'delivered' });
  });

  it('matches strings trimmed and case-insensitively, and numbers against their text', () => {
    expect(world.call('get_order', { order_id: ' ord-1 ' }).result).toEqual({ state: 'shipped' });
    expect(world.call('search', { n: '3' }).result).toBe('three');
    expect(world.call('search', { n: 4 }).result).toBe('other');
  });

  it('answers a call no entry matches with a not_found error', () => {
    const outcome = world.call('get_order', { order_id: 'ORD-9' });
    expect(outcome.result).toMatchObject({ status: 'not_found' });
    expect(String((outcome.result as { reason: string }).reason)).toContain('ORD-9');
    expect(world.call('nothing', {}).result).toMatchObject({ status: 'not_found' });
  });

  it('answers an undeclared tool with an error naming the offered tools', () => {
    expect(world.call('delete_everything', {}).result).toMatchObject({ status: 'error', reason: expect.stringContaining('get_order') });
  });

  it('applies faults before the world', () => {
    expect(world.call('refund', {})).toEqual({ result: { status: 'timeout', reason: 'refund did not answer in time' }, fault: 'timeout' });
    const errorWorld = createToolWorld({ ...task, faults: [{ tool: 'refund', mode: 'error' }] });
    expect(errorWorld.call('refund', {}).result).toMatchObject({ status: 'error' });
    const emptyWorld = createToolWorld({ ...task, faults: [{ tool: 'refund', mode: 'empty' }] });
    expect(emptyWorld.call('refund', {})).toEqual({ result: {}, fault: 'empty' });
  });

  it('gives results as copies, so an agent cannot change the world', () => {
    const first = world.call('get_order', { order_id: 'ORD-1' }).result as Record<string, unknown>;
    first.state = 'changed';
    expect(world.call('get_order', { order_id: 'ORD-1' }).result).toEqual({ state: 'shipped' });
  });

  it('writes the fault plan in the SDK shape', () => {
    expect(faultPlan(task)).toEqual({ refund: { mode: 'timeout' } });
    expect(faultPlan({ faults: [] })).toBeUndefined();
  });
});
