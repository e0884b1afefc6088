// Rows the benches write. writeSdkRows: N SDK-shaped rows (25% of tasks x k=4 structure) to a JSONL file,
// streamed; with `messages`, each row also carries its conversation, as the SDK's own export does (about 1 KiB a
// row instead of 0.5). compareRunLines: the two compare benches' runs.
import fs from 'node:fs';
import { once } from 'node:events';

export async function writeSdkRows(file, count, { messages = false } = {}) {
  const out = fs.createWriteStream(file);
  let buffer = '';
  for (let i = 0; i < count; i++) {
    const task = `task-${Math.floor(i / 4)}`;
    const row = {
      schema_version: '1',
      prompt: `Customer ${i % 997} asks: where is my order ${100000 + i}? It was due last week.`,
      steps: [{ tool: 'lookup_order', arguments: { order_id: 100000 + i }, result: { status: i % 5 ? 'shipped' : 'lost', eta: '2026-12-01' }, text: '' }],
      final_text: `Your order ${100000 + i} is ${i % 5 ? 'on its way and should arrive by December 1st' : 'lost; I have opened a claim'}.`,
      scenario_id: task,
      rollout_index: i % 4,
      reward: (i * 2654435761) % 7 < 4 ? 1 : 0,
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

function lcg(seed) {
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
