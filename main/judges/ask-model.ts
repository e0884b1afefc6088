// One question to a judge's model (an agent: seeded, llama, OpenAI-compatible): a system and a user message, a
// per-row deadline that cancels the request, and the caller's cancel signal. The reply is text and untrusted; a
// failure is the row's judge_status (timeout, error, or invalid_result for a tool call instead of an answer).
import { setMaxListeners } from 'node:events';
import type { Agent } from '../agents/agent-types';
import { errorText, withDeadline } from './normalize-verdict';
import type { JudgeStatus } from './judge-types';

export type ModelAnswer = { ok: true; text: string } | { ok: false; status: Exclude<JudgeStatus, 'ok' | 'missing_reward' | 'crashed'>; meta: Record<string, unknown> };

export interface AskOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** The row, so a deterministic agent (seeded, llama's seed) seeds itself from the rollout it judges. */
  row: Record<string, unknown>;
}

export async function askJudgeModel(agent: Agent, system: string, user: string, options: AskOptions): Promise<ModelAnswer> {
  const { row, signal, timeoutMs } = options;
  // One grade's or run's signal is shared by every row in flight (a page of 256 at once): each adds its listeners
  // and removes them when it settles, so the default warning at 10 would be a false alarm.
  if (signal) setMaxListeners(0, signal);
  const controller = new AbortController();
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const outcome = await withDeadline(
      () =>
        agent.turn({
          messages: [{ role: 'system', content: system }, { role: 'user', content: user }],
          tools: [],
          rollout: { scenarioId: String(row.scenario_id ?? 'judge'), rolloutIndex: Number.isInteger(row.rollout_index) ? (row.rollout_index as number) : 0, evalRun: 0, seed: 0, turn: 0 },
          signal: controller.signal,
        }),
      timeoutMs,
      signal,
    );
    if (!outcome.ok) {
      controller.abort(new Error('judge timed out'));
      return outcome.timedOut ? { ok: false, status: 'timeout', meta: { timeout_s: timeoutMs / 1000 } } : { ok: false, status: 'error', meta: { error: errorText(outcome.error) } };
    }
    if (outcome.value.toolCalls.length > 0) return { ok: false, status: 'invalid_result', meta: { problem: 'the judge called a tool instead of answering' } };
    return { ok: true, text: outcome.value.text };
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
