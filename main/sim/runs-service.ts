// What the runs API does: check the inputs, store the run with its task set, launch, cancel, resume, describe.
import path from 'node:path';
import type { z } from 'zod';
import { ApiError } from '../../shared/api/define';
import type { RunConfig, RunDetail, runStartInput } from '../../shared/api/runs';
import { countRows } from '../rows/index';
import { effectiveStatus, getRun, insertRun, passAtOne } from '../db/repos/runs';
import type { EngineContext } from '../engine/context';
import { parseAgentSpec } from './agents/create-agent';
import { activeRuns, launchRun } from './run-engine';
import { parseTaskSet, readTaskFile } from './task-file';

export type RunStartInput = z.output<typeof runStartInput>;

export function startRun(ctx: EngineContext, input: RunStartInput): { run_id: string; expected_rows: number; tasks: number } {
  try {
    parseAgentSpec(input.agent);
  } catch (error) {
    throw new ApiError('bad_input', (error as Error).message, 'agent');
  }
  if (input.rubric && !input.judge) throw new ApiError('bad_input', '--rubric goes with a judge: add --judge llm:<agent spec>', 'rubric');
  const tasksPath = input.tasks_path ? path.resolve(input.tasks_path) : null;
  const set = tasksPath ? readTaskFile(tasksPath) : parseTaskSet(input.tasks_text ?? '', '(task text)');
  const k = input.k ?? (set.kind === 'rows' ? Math.max(1, set.rowsPerPrompt) : 1);
  const expected = set.tasks.length * k * input.runs;
  const config: RunConfig = {
    tasks_path: tasksPath,
    tasks_sha256: set.sha256,
    tasks_count: set.tasks.length,
    agent: input.agent.trim(),
    k,
    runs: input.runs,
    judge: input.judge ?? null,
    rubric: input.rubric ? path.resolve(input.rubric) : null,
    seed: input.seed,
    max_turns: input.max_turns,
    concurrency: input.concurrency,
    misbehave_rate: input.misbehave_rate,
    api_key_env: input.api_key_env ?? null,
    gpu: input.gpu,
    threads: input.threads ?? null,
    context_size: input.context_size ?? null,
  };
  const name = input.name ?? `${tasksPath ? path.basename(tasksPath, path.extname(tasksPath)) : 'tasks'} × ${config.agent} × k=${k}`;
  const runId = insertRun(ctx.db, { name, config, tasks: set.tasks, expectedRows: expected, source: tasksPath });
  ctx.publishChanges(); // the new run's datasets.changed, now rather than on the change feed's next tick
  launchRun(ctx, runId);
  return { run_id: runId, expected_rows: expected, tasks: set.tasks.length };
}

function requireRun(ctx: EngineContext, id: string) {
  const run = getRun(ctx.db, id);
  if (!run) throw new ApiError('not_found', `no run with id "${id}" (see \`while-desk runs\`)`, 'id');
  return run;
}

export function statusOf(ctx: EngineContext, id: string) {
  const run = requireRun(ctx, id);
  return effectiveStatus(run.status, run.pid, activeRuns(ctx).has(id));
}

export function resumeRun(ctx: EngineContext, id: string): { run_id: string; expected_rows: number; remaining: number } {
  const run = requireRun(ctx, id);
  const status = statusOf(ctx, id);
  const rows = countRows(ctx.db, id);
  if (status === 'running' && !activeRuns(ctx).has(id)) {
    throw new ApiError('conflict', `run ${id} is still going in process ${run.pid}; cancel it there or wait`, 'id');
  }
  if (!activeRuns(ctx).has(id)) launchRun(ctx, id);
  return { run_id: id, expected_rows: run.expectedRows, remaining: run.expectedRows - rows };
}

export function cancelRun(ctx: EngineContext, id: string): boolean {
  requireRun(ctx, id);
  const active = activeRuns(ctx).get(id);
  if (!active) return false;
  active.controller.abort();
  return true;
}

/** Resolves when the run stops in this engine (at once when it is not going here). */
export async function waitForRun(ctx: EngineContext, id: string): Promise<void> {
  await activeRuns(ctx).get(id)?.done;
}

export function describeRun(ctx: EngineContext, id: string): RunDetail {
  const run = requireRun(ctx, id);
  const { passAt1, graded } = passAtOne(ctx.db, id);
  return {
    id,
    name: run.name,
    status: effectiveStatus(run.status, run.pid, activeRuns(ctx).has(id)),
    rows: countRows(ctx.db, id),
    expected_rows: run.expectedRows,
    agent: run.config.agent,
    judge: run.config.judge,
    created_at: run.createdAt,
    finished_at: run.finishedAt,
    error: run.error,
    config: run.config,
    rollouts_lost: run.lost,
    pass_at_1: passAt1,
    graded_rows: graded,
  };
}
