// Results of a graded dataset or run on the platform (platform-api §4): the agent registered (upsert), the
// behaviour declared (replace), a tracked run under a client-chosen id (a repeat overwrites it, §4.7), its
// score (pass@1 in points with the 95% interval's half-width and the task count, examples attached), the
// graded rows replaced in chunks of 500, and the run finished. Every step is safe to repeat, so an interrupted
// item simply starts over.
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../shared/api/define';
import { passAt } from '../../shared/stats/pass-at';
import { groupLabel } from '../../shared/stats/readers';
import { isObject, taskKey } from '../../shared/stats/keys';
import type { Db } from '../db/connection';
import { findDataset } from '../db/repos/datasets';
import { iterateRowJson } from '../rows/index';
import { enqueueOutboxItem, type OutboxItem } from '../rows/outbox';
import type { PlatformClient } from './client';
import { openReader } from './reader';
import { resultsMeasures, type ResultsMeasures } from './results-measures';
import { EXAMPLE_TEXT_MAX, EXAMPLE_WHY_MAX, ROW_TEXT_MAX, trimText } from './trim-text';

export const ROWS_PER_CALL = 500;
const EXAMPLES_MAX = 20;
const FAILURES_FIRST = 14;
const BEHAVIOR_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export interface ResultsPayload {
  dataset_id: string;
  agent: string;
  agent_id: string;
  version: string;
  behavior: string;
  test_version?: string;
  run_id: string;
  score: { score: number; ci: number; n: number };
  /** The score's sample: the first 14 failures, then passes, 20 at most, texts cut to 1200. */
  examples: Record<string, unknown>[];
  /** Noise floor, judge agreement and figures, worked out locally when queued (results-measures.ts). */
  measures?: ResultsMeasures;
  experiment?: ResultsExperiment;
  /** The run's notes (markdown, at most 8192 characters). */
  notes?: string;
}

/** The agent's experiment block (§4.2 Experiment); a second push replaces it. */
export interface ResultsExperiment {
  question: string;
  hypothesis?: string;
  method?: string;
  measure?: string;
  decide?: string;
  notes?: string;
}

/** `track("Refund bot")` -> "Refund-bot" (§4.3). */
export function agentSlug(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[-._]+|[-._]+$/g, '').slice(0, 64) || 'agent';
}

const round1 = (value: number) => Math.round(value * 10) / 10;

/** One graded row as the platform's Example (§4.2), its texts cut in the middle at the caps. */
export function exampleOf(row: Record<string, unknown>, textCap = ROW_TEXT_MAX): Record<string, unknown> | null {
  const reward = typeof row.reward === 'number' ? row.reward : groupLabel(row);
  if (reward === null || reward === undefined || !Number.isFinite(reward)) return null;
  const text = (value: unknown, cap: number) => (typeof value === 'string' ? trimText(value, cap) : undefined);
  const example: Record<string, unknown> = { ok: reward >= 1 || groupLabel(row) === 1, prompt: text(row.prompt, textCap), reply: text(row.final_text, textCap), score: reward };
  const why = text(row.reason ?? row.why, EXAMPLE_WHY_MAX);
  if (why) example.why = why;
  if (isObject(row.tags)) example.tags = Object.fromEntries(Object.entries(row.tags).map(([k, v]) => [k, String(v)]));
  for (const key of Object.keys(example)) if (example[key] === undefined) delete example[key];
  return example;
}

export interface ResultsRequest {
  dataset_id: string;
  agent: string;
  version: string;
  behavior: string;
  test_version?: string;
  experiment?: ResultsExperiment;
  notes?: string;
}

/** Scores the rows locally (nothing is sent) and queues the results as one outbox item. */
export async function queueResults(db: Db, request: ResultsRequest): Promise<{ item: OutboxItem; score: ResultsPayload['score']; graded: number; measures: ResultsMeasures }> {
  const dataset = findDataset(db, request.dataset_id);
  if (!dataset) throw new ApiError('not_found', `no dataset or run with id "${request.dataset_id}"`, 'dataset_id');
  if (!BEHAVIOR_NAME.test(request.behavior) || request.behavior.length > 64) {
    throw new ApiError('bad_input', `behaviour "${request.behavior}" must match ${BEHAVIOR_NAME.source} and be at most 64 characters (refund_policy, not "refund policy")`, 'behavior');
  }
  const light: Array<Record<string, unknown>> = [];
  const failures: Record<string, unknown>[] = [];
  const passes: Record<string, unknown>[] = [];
  const gold: Record<string, unknown>[] = [];
  for (const json of iterateRowJson(db, dataset.id)) {
    const row = JSON.parse(json) as Record<string, unknown>;
    const eval_run = isObject(row.lineage) ? row.lineage.eval_run : undefined;
    light.push({ scenario_id: taskKey(row), reward: row.reward, qwen_reward: row.qwen_reward, ...(eval_run !== undefined ? { lineage: { eval_run } } : {}) });
    if (row.gold_reward !== undefined && row.gold_reward !== null) gold.push(row);
    const sample = failures.length < FAILURES_FIRST || passes.length < EXAMPLES_MAX ? exampleOf(row, EXAMPLE_TEXT_MAX) : null;
    if (sample && (sample.ok ? passes : failures).length < EXAMPLES_MAX) (sample.ok ? passes : failures).push(sample);
  }
  const examples = [...failures.slice(0, FAILURES_FIRST), ...passes].slice(0, EXAMPLES_MAX);
  const result = passAt(light);
  if (result.pass_at_1 === null) throw new ApiError('bad_input', `${dataset.id} has no graded rows (0/1 rewards) to score; grade it first`, 'dataset_id');
  const ci = result.ci95 ? round1((100 * (result.ci95[1] - result.ci95[0])) / 2) : 0;
  const score = { score: round1(100 * result.pass_at_1), ci, n: result.n_groups };
  const agent_id = agentSlug(request.agent);
  const measures = await resultsMeasures(light, gold, { agent: agent_id, behavior: request.behavior, version: request.version });
  const payload: ResultsPayload = { ...request, agent_id, run_id: `wd-${randomUUID().replace(/-/g, '').slice(0, 24)}`, score, examples, measures };
  const item = db.transaction(() => enqueueOutboxItem(db, { kind: 'run.results', datasetId: dataset.id, payload: payload as unknown as Record<string, unknown> }))();
  return { item, score, graded: result.n_rows, measures };
}

/** Sends (or sends again) a queued results item. */
export async function runResults(db: Db, client: PlatformClient, payload: ResultsPayload): Promise<Record<string, unknown>> {
  const agent = encodeURIComponent(payload.agent_id);
  const behavior = encodeURIComponent(payload.behavior);
  const run = encodeURIComponent(payload.run_id);
  await client.call('tracked', 'POST', '/agents', { json: { id: payload.agent_id, name: payload.agent } });
  const measures = payload.measures;
  const declared = {
    ...(payload.test_version ? { testVersion: payload.test_version } : {}),
    n: payload.score.n,
    ...(measures?.noise_floor !== null && measures?.noise_floor !== undefined ? { noiseFloor: measures.noise_floor } : {}),
    ...(measures?.judge ? { judge: measures.judge } : {}),
  };
  await client.call('tracked', 'PUT', `/agents/${agent}/behaviors/${behavior}`, { json: declared });
  if (payload.experiment) await client.call('tracked', 'PUT', `/agents/${agent}/experiment`, { json: payload.experiment });
  const created = await client.call<{ id?: string }>('tracked', 'POST', '/runs', { json: { agent: payload.agent_id, id: payload.run_id, version: payload.version, method: 'eval', targets: [payload.behavior] } });

  // The score first, then the graded rows replaced: one DELETE, then chunks of 500 at their offsets (§4.6).
  await client.call('tracked', 'POST', `/runs/${run}/evals`, {
    json: [{ behavior: payload.behavior, ...payload.score, ...(payload.test_version ? { testVersion: payload.test_version } : {}), version: payload.version, examples: payload.examples }],
  });
  await client.call('tracked', 'DELETE', `/runs/${run}/evals/${behavior}/rows`);
  const reader = openReader(db); // the cursor lives on a connection of its own across the sends
  let sent = 0;
  const rows = iterateRowJson(reader, payload.dataset_id);
  try {
    for (let done = false; !done; ) {
      const chunk: Record<string, unknown>[] = [];
      while (chunk.length < ROWS_PER_CALL) {
        const next = rows.next();
        if (next.done) {
          done = true;
          break;
        }
        const example = exampleOf(JSON.parse(next.value) as Record<string, unknown>);
        if (example) chunk.push(example);
      }
      if (!chunk.length) break;
      await client.call('tracked', 'POST', `/runs/${run}/evals/${behavior}/rows`, { json: { rows: chunk, offset: sent } });
      sent += chunk.length;
    }
  } finally {
    rows.return(undefined);
    reader.close();
  }
  // Figures after the run exists, so each names it; the same name replaces (§4.3).
  for (const figure of measures?.figures ?? []) {
    await client.call('tracked', 'PUT', `/agents/${agent}/figures/${encodeURIComponent(figure.name)}`, { json: { figure: figure.figure, caption: figure.caption, run: payload.run_id } });
  }
  await client.call('tracked', 'PATCH', `/runs/${run}`, { json: { status: 'evaluated', ...(payload.notes ? { notes: payload.notes } : {}) } });
  return { run_id: created?.id ?? payload.run_id, agent: payload.agent_id, version: payload.version, behavior: payload.behavior, ...payload.score, rows: sent };
}
