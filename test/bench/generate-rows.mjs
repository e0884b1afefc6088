// Rows the benches write. writeSdkRows: N SDK-shaped rows (25% of tasks x k=4 structure) to a JSONL file,
// streamed; with `messages`, each row also carries its conversation, as the SDK's own export does (about 1 KiB a
// row instead of 0.5). compareRunLines: the two compare benches' small runs (0.3 KB rows). realisticRow and
// writeRealisticRows: rows as real runs write them (about 1.7 KB: a multi-turn conversation, tool calls with their
// outputs in steps and messages, the world, sampling, usage, lineage), the size that issue 30's figures are on.
import fs from 'node:fs';
import { once } from 'node:events';

export async function writeSdkRows(file, count, { messages = false, seed, shift = 0 } = {}) {
  const out = fs.createWriteStream(file);
  // With a seed, each task's pass rate is drawn as compareRunLines draws it (a run to compare); else a fixed pattern.
  const rand = seed === undefined ? null : lcg(seed);
  let p = 0;
  let buffer = '';
  for (let i = 0; i < count; i++) {
    const task = `task-${Math.floor(i / 4)}`;
    if (rand && i % 4 === 0) p = Math.min(1, (rand() < 0.2 ? 0 : rand() < 0.25 ? 1 : rand()) + shift);
    const row = {
      schema_version: '1',
      prompt: `Customer ${i % 997} asks: where is my order ${100000 + i}? It was due last week.`,
      steps: [{ tool: 'lookup_order', arguments: { order_id: 100000 + i }, result: { status: i % 5 ? 'shipped' : 'lost', eta: '2026-12-01' }, text: '' }],
      final_text: `Your order ${100000 + i} is ${i % 5 ? 'on its way and should arrive by December 1st' : 'lost; I have opened a claim'}.`,
      scenario_id: task,
      rollout_index: i % 4,
      reward: rand ? (rand() < p ? 1 : 0) : (i * 2654435761) % 7 < 4 ? 1 : 0,
      model_version: 'bench-agent',
      finish_reason: 'stop',
      usage: { input_tokens: 120, output_tokens: 24 },
      lineage: { system_prompt_sha: '0123456789abcdef', system_prompt_chars: 42 },
    };
    if (messages) {
      row.messages = [
        { role: 'system', content: 'You are a support agent. Look orders up before you answer.' },
        { role: 'user', content: row.prompt },
        { role: 'assistant', content: '', tool_calls: [{ name: 'lookup_order', arguments: { order_id: 100000 + i } }] },
        { role: 'tool', name: 'lookup_order', content: JSON.stringify(row.steps[0].result) },
        { role: 'assistant', content: row.final_text },
      ];
      row.sampling = { temperature: 0.7, top_p: 1, max_tokens: 512 };
      row.policy_version = 'bench-agent@0123456789abcdef';
    }
    buffer += JSON.stringify(row) + '\n';
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, 'drain');
      buffer = '';
    }
  }
  out.end(buffer);
  await once(out, 'finish');
}

/** The benches' seeded random numbers in [0, 1): the same seed, the same rows on every machine. */
export function lcg(seed) {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

/**
 * The compare benches' run (compare.bench.mjs, compare-screen.bench.mjs): `tasks` tasks x `k` rollouts as JSONL text,
 * each task's pass rate drawn from `seed` and raised by `shift`, with five categories.
 */
export function compareRunLines(tasks, k, seed, shift) {
  const rand = lcg(seed);
  const lines = [];
  for (let t = 0; t < tasks; t++) {
    const p = Math.min(1, (rand() < 0.2 ? 0 : rand() < 0.25 ? 1 : rand()) + shift);
    for (let r = 0; r < k; r++) {
      lines.push(JSON.stringify({
        scenario_id: `task_${t}`, rollout_index: r, prompt: `Task ${t}: please help with order ${1000 + t}.`, final_text: `Reply ${t}/${r}`,
        steps: [], reward: rand() < p ? 1 : 0, judge_status: 'ok', sampling: { temperature: 0.7, max_tokens: 512 },
        policy_version: 'bench-policy@abc123', finish_reason: rand() < 0.03 ? 'length' : 'stop', category: `c${t % 5}`,
      }));
    }
  }
  return lines.join('\n') + '\n';
}

const CITIES = ['Lisbon', 'Osaka', 'Denver', 'Nairobi', 'Tallinn'];

/**
 * One row as a real support-agent run writes it (schema v1, about 1.7 KB of JSON): task `task` of a run with pass
 * rate `p` for it, rollout `index`. A fifth of the tasks are a lost parcel (two tool calls, a refund: 2.2 KB), the
 * rest one lookup (1.65 KB); every row has a follow-up user turn. `rand` draws the reward and the finish reason.
 */
export function realisticRow(task, index, p, rand) {
  const order = 100000 + task;
  const city = CITIES[task % 5];
  const lost = task % 5 === 0;
  const status = lost ? 'lost' : 'shipped';
  const lookup = { status, eta: '2026-12-01', warehouse: city };
  const refund = { ok: lost, refund_id: lost ? `R-${order}` : null, amount: lost ? 19.99 : 0 };
  const prompt = `My order ${order} has not arrived in ${city}. Where is it?`;
  const opening = 'Let me look that up for you.';
  const finalText = lost
    ? `I am sorry: order ${order} was lost in transit by ParcelCo. I have opened refund R-${order} for $19.99, which reaches your card in 3-5 business days.`
    : `Order ${order} has shipped with ParcelCo from our ${city} warehouse and should arrive by December 1st.`;
  const followUp = 'Thanks. Is that final?';
  const reward = rand() < p ? 1 : 0;
  return {
    schema_version: '1',
    prompt,
    steps: [
      { tool: 'lookup_order', arguments: { order_id: order }, result: lookup, text: opening },
      ...(lost ? [{ tool: 'issue_refund', arguments: { order_id: order, amount: 19.99 }, result: refund }] : []),
      { user: followUp },
      { text: finalText },
    ],
    final_text: finalText,
    messages: [
      { role: 'system', content: 'You are the support agent of a small shop. Look orders up first.' },
      { role: 'user', content: prompt },
      { role: 'assistant', content: opening, tool_calls: [{ name: 'lookup_order', arguments: { order_id: order } }] },
      { role: 'tool', name: 'lookup_order', content: JSON.stringify(lookup) },
      ...(lost
        ? [
            { role: 'assistant', content: '', tool_calls: [{ name: 'issue_refund', arguments: { order_id: order, amount: 19.99 } }] },
            { role: 'tool', name: 'issue_refund', content: JSON.stringify(refund) },
          ]
        : []),
      { role: 'user', content: followUp },
      { role: 'assistant', content: finalText },
    ],
    world: { seed: task, state: { order, status }, faults: lost ? { lookup_order: { mode: 'stale', rate: 0.2 } } : {} },
    scenario_id: `task_${task}`,
    rollout_index: index,
    reward,
    reason: reward ? 'resolved the ask' : 'claimed an unseen status',
    judge_status: 'ok',
    model_version: 'bench-agent',
    policy_version: 'bench-agent@0123456789abcdef',
    sampling: { temperature: 0.7, top_p: 1, max_tokens: 512 },
    finish_reason: rand() < 0.03 ? 'length' : 'stop',
    usage: { input_tokens: 412, output_tokens: 101 },
    category: `c${task % 5}`,
    lineage: { system_prompt_sha: '0123456789abcdef', system_prompt_chars: 108, judge_version: 'j1' },
  };
}

/**
 * `tasks` tasks x `k` rollouts of realistic rows (realisticRow) as a JSONL file, streamed: each task's pass rate drawn
 * from `seed` (a fifth never pass, a fifth of the rest always do) and raised by `shift`, as compareRunLines draws them.
 */
export async function writeRealisticRows(file, tasks, k, { seed = 7, shift = 0 } = {}) {
  const rand = lcg(seed);
  const out = fs.createWriteStream(file);
  let buffer = '';
  for (let t = 0; t < tasks; t++) {
    const p = Math.min(1, (rand() < 0.2 ? 0 : rand() < 0.25 ? 1 : rand()) + shift);
    for (let r = 0; r < k; r++) {
      buffer += JSON.stringify(realisticRow(t, r, p, rand)) + '\n';
      if (buffer.length > 1 << 20) {
        if (!out.write(buffer)) await once(out, 'drain');
        buffer = '';
      }
    }
  }
  out.end(buffer);
  await once(out, 'finish');
}
