// The example task set `while-desk init` writes: a support desk with orders, refunds, a faulted tool and an
// unknown-order ask, so the seeded agent and the example judge give a mix of passes and failures.
const getOrder = {
  type: 'function',
  function: {
    name: 'get_order',
    description: 'Look up an order by its id',
    parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
  },
};
const refundOrder = {
  type: 'function',
  function: {
    name: 'refund_order',
    description: 'Refund an order',
    parameters: { type: 'object', properties: { order_id: { type: 'string' }, amount: { type: 'number' } }, required: ['order_id'] },
  },
};
const SYSTEM = 'You are a support agent for Acme. Look things up with the tools; never guess an order.';

const order = (id: string, state: string) => ({ when: { order_id: id }, result: { status: 'ok', order_id: id, state } });
const notFound = { result: { status: 'not_found', reason: 'no such order' } };

export const EXAMPLE_TASKS: Array<Record<string, unknown>> = [
  {
    scenario_id: 'order-status-1',
    prompt: 'Where is my order ORD-1042? It has not arrived yet.',
    system_prompt: SYSTEM,
    tools: [getOrder],
    world: { get_order: [order('ORD-1042', 'shipped'), notFound] },
    reference: 'shipped',
    category: 'orders',
  },
  {
    scenario_id: 'order-status-2',
    prompt: 'Can you check order ORD-2077 for me?',
    system_prompt: SYSTEM,
    tools: [getOrder],
    world: { get_order: [order('ORD-2077', 'delivered'), notFound] },
    reference: 'delivered',
    category: 'orders',
  },
  {
    scenario_id: 'refund-1',
    prompt: 'Please refund order ORD-3310, amount 25 dollars.',
    system_prompt: SYSTEM,
    tools: [getOrder, refundOrder],
    world: {
      refund_order: [{ when: { order_id: 'ORD-3310' }, result: { status: 'ok', refund_id: 'RF-88', amount: 25 } }, { result: { status: 'error', reason: 'order not refundable' } }],
    },
    reference: 'RF-88',
    category: 'refunds',
    expected: { refund_id: 'RF-88' },
  },
  {
    scenario_id: 'order-status-down',
    prompt: 'What is the state of order ORD-5150?',
    system_prompt: SYSTEM,
    tools: [getOrder],
    world: { get_order: [order('ORD-5150', 'packed')] },
    faults: [{ tool: 'get_order', mode: 'timeout' }],
    reference: 'try again',
    category: 'faults',
  },
  {
    scenario_id: 'order-status-3',
    prompt: 'Has ORD-7001 left the warehouse?',
    system_prompt: SYSTEM,
    tools: [getOrder],
    world: { get_order: [order('ORD-7001', 'in transit'), notFound] },
    reference: 'in transit',
    category: 'orders',
  },
  {
    scenario_id: 'order-unknown',
    prompt: 'Check order ORD-9999 please.',
    system_prompt: SYSTEM,
    tools: [getOrder],
    world: { get_order: [order('ORD-1042', 'shipped'), notFound] },
    reference: 'not_found',
    category: 'orders',
  },
];
