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

  it('never gives a call another entity\'s result: an invented order id gets the not_found error', () => {
    const single = createToolWorld(
      taskSchema.parse({
        scenario_id: 's',
        prompt: 'p',
        tools: [tool('get_order'), tool('lookup')],
        world: {
          // A one-entry world written for ORD-1042 only, and an entry keyed on another argument.
          get_order: [{ result: { status: 'ok', order_id: 'ORD-1042', state: 'shipped' } }],
          lookup: [{ when: { email: 'a@b.c' }, result: { order_id: 'ORD-7', state: 'delivered' } }, { result: { status: 'not_found', reason: 'no such order' } }],
        },
      }),
    );
    expect(single.call('get_order', { order_id: 'ORD-1042' }).result).toMatchObject({ state: 'shipped' });
    expect(single.call('get_order', { order_id: ' ord-1042 ' }).result).toMatchObject({ state: 'shipped' });
    const invented = single.call('get_order', { order_id: 'X-4242' });
    expect(invented.result).toMatchObject({ status: 'not_found' });
    expect(JSON.stringify(invented.result)).not.toContain('shipped');
    expect(single.call('lookup', { email: 'a@b.c' }).result).toMatchObject({ state: 'delivered' });
    expect(single.call('lookup', { email: 'a@b.c', order_id: 'ORD-9' }).result).toEqual({ status: 'not_found', reason: 'no such order' });
    // A fallback that names no entity still answers every call (the task author's own "not found").
    expect(world.call('get_order', { order_id: 'X-1' }).result).toMatchObject({ status: 'not_found' });
    expect(world.call('search', { n: 'X-1' }).result).toBe('other');
  });

  it('treats tool names like __proto__ and constructor as unknown tools, not as world entries', () => {
    expect(world.call('constructor', {}).result).toMatchObject({ status: 'error' });
    expect(world.call('__proto__', {}).result).toMatchObject({ status: 'error' });
    const open = createToolWorld({ tools: [], world: {}, faults: [] });
    expect(open.call('toString', {}).result).toMatchObject({ status: 'not_found' });
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
