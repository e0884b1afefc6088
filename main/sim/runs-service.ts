// What the runs API does: check the inputs, store the run with its task set, launch, cancel, resume, wait, describe.
import path from 'node:path';
import type { z } from '../../shared/schema/zod';
import { ApiError } from '../../shared/api/define';
import type { RunConfig, RunDetail, RunSummary, runStartInput } from '../../shared/api/runs';
import { agentLabel, judgeLabel } from '../../shared/schema/run-settings';
import { passAt } from '../../shared/stats/pass-at';
import { countRows, judgeStatusCounts, runScoreRows } from '../rows/index';
import { getRun, insertRun, listRuns, type RunListEntry } from '../db/repos/runs';
import type { EngineContext } from '../engine/context';
import { absoluteAgent, absoluteJudge, checkAgentFiles, loadCheckedJudge } from './run-inputs';
import type { RowJudge } from '../judges/judge-types';
import { activeRuns, launchRun } from './run-engine';
import { shownStatus } from './run-status';
import { parseTaskSet, readTaskFile } from './task-file';
import { settledWithin } from '../engine/settled-within';

export type RunStartInput = z.output<typeof runStartInput>;

export interface StartRunHooks {
  /** Runs in the transaction that stores the run (a sweep links its arm there, so a crash leaves no orphan). */
  onStored?: (runId: string) => void;
  /** A judge already loaded for this run's judge settings (a sweep shares one across its arms); used as given. */
  judge?: RowJudge;
}

export async function startRun(ctx: EngineContext, input: RunStartInput, hooks: StartRunHooks = {}): Promise<{ run_id: string; expected_rows: number; tasks: number }> {
  const cwd = process.cwd();
  const agent = absoluteAgent(input.agent, cwd);
  checkAgentFiles(agent, 'agent.model_path');
  const judge = input.judge ? absoluteJudge(input.judge, cwd) : null;
  const tasksPath = input.tasks_path ? path.resolve(cwd, input.tasks_path) : null;
  // The judge is loaded before the run exists: a refused judge leaves nothing behind. Its processes boot (a tenth
  // of a second each) while the task file is read; a refused task file is still the error reported, and the
  // judge loaded meanwhile is closed.
  const loading = hooks.judge ? null : judge ? loadCheckedJudge(judge, { seed: input.seed, concurrency: input.concurrency }) : null;
  let set: ReturnType<typeof readTaskFile>;
  try {
    set = tasksPath ? readTaskFile(tasksPath) : parseTaskSet(input.tasks_text ?? '', '(task text)');
  } catch (error) {
    loading?.then((loaded) => loaded.close?.()).catch(() => undefined);
    throw error;
  }
  // The override is written into the stored task set, so rollouts, resume and the rows' lineage all see it.
  const systemPrompt = input.system_prompt ?? null;
  const tasks = systemPrompt === null ? set.tasks : set.tasks.map((task) => ({ ...task, system_prompt: systemPrompt }));
  const k = input.k ?? (set.kind === 'rows' ? Math.max(1, set.rowsPerPrompt) : 1);
  const expected = set.tasks.length * k * input.runs;
  const config: RunConfig = {
    tasks_path: tasksPath,
    tasks_sha256: set.sha256,
    tasks_count: set.tasks.length,
    agent,
    judge,
    k,
    runs: input.runs,
    seed: input.seed,
    max_turns: input.max_turns,
    concurrency: input.concurrency,
    system_prompt: systemPrompt,
    agent_name: input.agent_name ?? null,
    version: input.version ?? null,
    stamp_markers: input.stamp_markers,
  };
  const loaded = hooks.judge ?? (loading ? await loading : null);
  const name = input.name ?? `${tasksPath ? path.basename(tasksPath, path.extname(tasksPath)) : 'tasks'} × ${agentLabel(agent)} × k=${k}`;
  let runId: string;
  try {
    runId = ctx.db.transaction(() => {
      const id = insertRun(ctx.db, { name, config, tasks, expectedRows: expected, source: tasksPath });
      hooks.onStored?.(id);
      return id;
    })();
  } catch (error) {
    await loaded?.close?.().catch(() => undefined);
    throw error;
  }
  ctx.publishChanges(); // the new run's datasets.changed, now rather than on the change feed's next tick
  launchRun(ctx, runId, loaded);
  return { run_id: runId, expected_rows: expected, tasks: set.tasks.length };
}

function requireRun(ctx: EngineContext, id: string) {
  const run = getRun(ctx.db, id);
  if (!run) throw new ApiError('not_found', `no run with id "${id}" (see \`while-desk runs\`)`, 'id');
  return run;
}

export function statusOf(ctx: EngineContext, id: string) {
  const run = requireRun(ctx, id);
  return shownStatus(ctx, id, run.status, run.pid);
}

export interface ResumeOutcome {
  run_id: string;
  expected_rows: number;
  remaining: number;
  resumed: boolean;
  message: string;
}

/** Runs the missing rollouts of a cancelled, failed or interrupted run; a finished run is left exactly as it is. */
export async function resumeRun(ctx: EngineContext, id: string): Promise<ResumeOutcome> {
  const run = requireRun(ctx, id);
  const status = shownStatus(ctx, id, run.status, run.pid);
  const rows = countRows(ctx.db, id);
  const base = { run_id: id, expected_rows: run.expectedRows, remaining: Math.max(0, run.expectedRows - rows) };
  if (status === 'done') {
    return { ...base, remaining: 0, resumed: false, message: `run ${id} is already done (${rows} of ${run.expectedRows} rows); nothing to resume, nothing changed` };
  }
  if (activeRuns(ctx).has(id)) return { ...base, resumed: false, message: `run ${id} is already going here: ${base.remaining} rollouts to go` };
  if (status === 'running') throw new ApiError('conflict', `run ${id} is still going in process ${run.pid}; cancel it there or wait`, 'id');
  checkAgentFiles(run.config.agent, 'agent.model_path');
  const judge = run.config.judge ? await loadCheckedJudge(run.config.judge, run.config) : null;
  launchRun(ctx, id, judge);
  return { ...base, resumed: true, message: `resuming: ${base.remaining} of ${run.expectedRows} rollouts to go` };
}

export function cancelRun(ctx: EngineContext, id: string): boolean {
  requireRun(ctx, id);
  const active = activeRuns(ctx).get(id);
  if (!active) return false;
  active.controller.abort();
  return true;
}

/** Resolves when the run stops in this engine (at once when it is not going here), or after timeoutS. */
export async function waitForRun(ctx: EngineContext, id: string, timeoutS?: number): Promise<{ run_id: string; status: RunDetail['status']; stopped: boolean }> {
  const active = activeRuns(ctx).get(id);
  // A run going here exists; reading its record (its whole task set) is left to the status afterwards.
  if (!active) requireRun(ctx, id);
  const stopped = active ? await settledWithin(active.done, timeoutS) : true;
  return { run_id: id, status: statusOf(ctx, id), stopped };
}

/**
 * pass@1 by the statistics core's own pass_at (shared/stats/pass-at.ts), the same number `stats pass-at` gives: read
 * from the run's indexed columns (runScoreRows says why they suffice), without the bootstraps the summary does not show.
 */
function passAtOne(ctx: EngineContext, id: string): number | null {
  return passAt(runScoreRows(ctx.db, id), { intervals: false }).pass_at_1;
}

/** The fields a run shows in lists and on its own page alike, from its stored record and its row count. */
function runSummary(ctx: EngineContext, run: Omit<RunListEntry, 'rows'>, rows: number): RunSummary {
  return {
    id: run.id,
    name: run.name,
    status: shownStatus(ctx, run.id, run.status, run.pid),
    rows,
    expected_rows: run.expectedRows,
    agent: agentLabel(run.config.agent),
    judge: run.config.judge ? judgeLabel(run.config.judge) : null,
    created_at: run.createdAt,
    finished_at: run.finishedAt,
    error: run.error,
    agent_name: run.config.agent_name,
    version: run.config.version,
  };
}

export async function describeRun(ctx: EngineContext, id: string): Promise<RunDetail> {
  const run = requireRun(ctx, id);
  // Rows a run writes are graded by its own judge, if it has one (applyVerdict): a reward means status ok.
  const judged = judgeStatusCounts(ctx.db, id, { gradedAreOk: Boolean(run.config.judge) });
  return {
    ...runSummary(ctx, run, countRows(ctx.db, id)),
    config: run.config,
    rollouts_lost: run.lost,
    pass_at_1: judged.graded > 0 ? passAtOne(ctx, id) : null,
    graded_rows: judged.graded,
    judge_status_counts: judged.counts,
  };
}

export function listRunSummaries(ctx: EngineContext): RunSummary[] {
  return listRuns(ctx.db).map((run) => runSummary(ctx, run, run.rows));
}
