// Rows for the training export bench: graded multi-turn rows as a real run leaves them, about 1.7 KB each: a prompt,
// two or three tool calls with their arguments and JSON output, a spoken step, the final reply, the grade with its
// judge fields, lineage, usage and markers. Some carry a whole float (temperature 1.0), as Python-written rows do.
import fs from 'node:fs';
import { once } from 'node:events';

const TOOLS = ['lookup_order', 'search_docs', 'refund_order', 'send_email'];

function toolResult(i, s) {
  return {
    status: (i + s) % 9 ? 'ok' : 'not_found',
    order_id: `ORD-${100000 + i}`,
    items: [{ sku: `SKU-${(i * 7 + s) % 1000}`, qty: 1 + (s % 3), price: 19.99 + s }, { sku: `SKU-${(i * 3) % 1000}`, qty: 1, price: 5.5 }],
    shipping: { carrier: 'UPS', tracking: `1Z${(i * 2654435761) % 1e9}`, eta: '2026-12-01', history: ['label created', 'picked up', 'in transit to the regional hub'] },
    note: 'The customer asked for delivery to the back door; signature not required for this order.',
  };
}

export function trainingRow(i) {
  const task = Math.floor(i / 4);
  const steps = [];
  const n = 2 + (i % 2);
  for (let s = 0; s < n; s++) {
    const tool = TOOLS[(i + s) % TOOLS.length];
    steps.push({ tool, arguments: { order_id: `ORD-${100000 + task}`, reason: s ? 'follow up on the shipment' : 'first lookup' }, result: toolResult(i, s) });
    if (s === 0) steps.push({ text: 'Let me check the shipment status for you.' });
  }
  const row = {
    schema_version: '1',
    prompt: `Customer ${task % 997} asks: where is my order ORD-${100000 + task}? It was due last week and I need it for a birthday on Saturday.`,
    steps,
    final_text: i % 3 ? `Your order ORD-${100000 + task} is in transit with UPS and should arrive by December 1st; the tracking number is in your email.` : 'I could not find that order; I have opened a ticket.',
    scenario_id: `task-${task}`,
    rollout_index: i % 4,
    reward: (i * 2654435761) % 7 < 4 ? 1 : 0,
    reason: 'conforms',
    judge_name: 'rules',
    judge_status: 'ok',
    model_version: 'bench-agent',
    policy_version: 'bench-agent@0123456789abcdef',
    finish_reason: 'stop',
    usage: { input_tokens: 812, output_tokens: 96 },
    lineage: { source: 'grade', system_prompt_sha: '0123456789abcdef', system_prompt_chars: 42 },
    markers: { grounded: 1, finished: 1 },
  };
  if (i % 10 < 3) row.sampling = { temperature: 1.0, top_p: 0.95 };
  return row;
}

/** N rows to `file`; a whole float written as Python writes it (1.0), not as JSON.stringify does (1). */
export async function writeTrainingRows(file, count) {
  const out = fs.createWriteStream(file);
  let buffer = '';
  for (let i = 0; i < count; i++) {
    buffer += JSON.stringify(trainingRow(i)).replace('"temperature":1,', '"temperature":1.0,') + '\n';
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  out.end(buffer);
  await once(out, 'finish');
}
