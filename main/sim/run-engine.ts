// A run: tasks x k x runs rollouts with bounded concurrency; each finished rollout committed at once
// (one small transaction per row, at its fixed slot ordinal), so kill -9 loses at most the rollouts in flight.
import { createHash } from 'node:crypto';
import { ApiError } from '../../shared/api/define';
import type { RolloutsLost, RunConfig } from '../../shared/api/runs';
import type { Task } from '../../shared/schema/task';
import { stampInPlace } from '../../shared/stats/markers/stamp';
import { claimRun, emptyLost, finishRun, getRun, type RunRecord } from '../db/repos/runs';
import { filledOrdinals, rowCommitter, startRunFolds, toStoredRow, type RunFolds, type StoredRow } from '../rows/index';
import type { EngineContext } from '../engine/context';
import type { RowJudge } from '../judges/judge-types';
import type { Agent } from '../agents/agent-types';
import { createAgent } from '../agents/create-agent';
import { loopGrader } from './judge-row';
import { loadCheckedJudge } from './run-inputs';
import { createProgress } from './run-progress';
import { runRollout, type LostReason } from './rollout';

type Obj = Record<string, unknown>;

export interface ActiveRun {
  id: string;
  controller: AbortController;
  done: Promise<RunRecord['status']>;
}

const registries = new WeakMap<EngineContext, Map<string, ActiveRun>>();

export function activeRuns(ctx: EngineContext): Map<string, ActiveRun> {
  let registry = registries.get(ctx);
  if (!registry) {
    const created = new Map<string, ActiveRun>();
    registries.set(ctx, created);
    ctx.onClose(async () => {
      for (const run of created.values()) run.controller.abort();
      await Promise.allSettled([...created.values()].map((run) => run.done));
    });
    registry = created;
  }
  return registry;
}

/** The slot of one rollout: its row ordinal. Fixed by the run's shape, so a resumed slot lands where it belongs. */
export function slotOrdinal(config: Pick<RunConfig, 'k'>, taskCount: number, evalRun: number, taskIndex: number, rolloutIndex: number): number {
  return (evalRun * taskCount + taskIndex) * config.k + rolloutIndex;
}

/** Errors that no re-roll can fix (a refused key, an exhausted quota): the run stops at once. */
function isFatal(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return status === 401 || status === 402 || status === 403;
}

function bump(record: Record<string, number>, reason: string): void {
  record[reason] = (record[reason] ?? 0) + 1;
}

const DEAD_AGENT_MIN_ERRORS = 16;
const YIELD_EVERY_MS = 10;

/** Runs every slot of the run that has no row yet. Resolves with the status written to the run. */
export function launchRun(ctx: EngineContext, runId: string, loadedJudge: RowJudge | null = null): ActiveRun {
  const registry = activeRuns(ctx);
  const existing = registry.get(runId);
  if (existing) {
    void loadedJudge?.close?.().catch(() => undefined);
    return existing;
  }
  const controller = new AbortController();
  const active: ActiveRun = { id: runId, controller, done: Promise.resolve('running') };
  active.done = execute(ctx, runId, controller.signal, loadedJudge).finally(() => registry.delete(runId));
  registry.set(runId, active);
  return active;
}

/** `loadedJudge`: the judge the caller already loaded and checked (start, resume); it is closed when the run stops. */
async function execute(ctx: EngineContext, runId: string, signal: AbortSignal, loadedJudge: RowJudge | null): Promise<RunRecord['status']> {
  const { db } = ctx;
  const record = getRun(db, runId);
  if (!record) {
    await loadedJudge?.close?.().catch(() => undefined);
    throw new ApiError('not_found', `no run with id "${runId}"`);
  }
  claimRun(db, runId);
  const { config, tasks } = record;
  const lost: RolloutsLost = record.lost ?? emptyLost();
  const filled = filledOrdinals(db, runId);
  const slots: Array<{ evalRun: number; taskIndex: number; rolloutIndex: number; ordinal: number }> = [];
  for (let evalRun = 0; evalRun < config.runs; evalRun++) {
    for (let taskIndex = 0; taskIndex < tasks.length; taskIndex++) {
      for (let rolloutIndex = 0; rolloutIndex < config.k; rolloutIndex++) {
        const ordinal = slotOrdinal(config, tasks.length, evalRun, taskIndex, rolloutIndex);
        if (!filled.has(ordinal)) slots.push({ evalRun, taskIndex, rolloutIndex, ordinal });
      }
    }
  }
  const progress = createProgress(ctx, runId, record.expectedRows, filled.size, lost);
  let agent: Agent | null = null;
  let judge: RowJudge | null = loadedJudge;
  let failure: string | null = null;
  let runFolds: RunFolds | null = null;
  // A seeded agent may pin its own seed (a sweep arm); the rows still carry the run's.
  const agentSeed = config.agent.kind === 'seeded' && config.agent.seed !== null ? config.agent.seed : config.seed;
  try {
    agent = await createAgent(config.agent, { seed: config.seed, concurrency: config.concurrency });
    if (config.judge && !judge) judge = await loadCheckedJudge(config.judge, config);
    // A fresh run folds its rows as they land, and keeps that fold once it is done (run-folds.ts); a resumed one
    // does not (its earlier rows were never folded here).
    runFolds = filled.size === 0 ? startRunFolds(record.expectedRows) : null;
    const commit = rowCommitter(db, runId, runFolds);
    const scoringRunId = `score_${createHash('sha256').update(runId).digest('hex').slice(0, 12)}`;
    // Landed rows are graded in batches off the rollouts' path (judge-row.ts), then stored.
    const grader = judge ? loopGrader(judge, scoringRunId, signal) : null;
    const rerolls = new Map<string, number>();
    let next = 0;
    let landed = 0;
    let agentErrors = 0;
    let firstAgentError: string | null = null;
    /** Agent-error rows wait here until some rollout works, so a dead agent leaves its slots empty for resume. */
    const pending: Array<{ row: Obj; ordinal: number }> = [];
    const commitRow = (stored: StoredRow, lostNow: RolloutsLost | null) => {
      commit.add(stored, lostNow ? { ...lostNow, lost_by: { ...lostNow.lost_by }, rerolled_by: { ...lostNow.rerolled_by } } : null, () => progress.rowLanded());
    };
    const store = (row: Obj, ordinal: number, lostNow: RolloutsLost | null) => commitRow(toStoredRow(row, ordinal), lostNow);
    let lastYield = performance.now();
    /** One yield shared by every worker: once it is due, they all park on it, so the loop runs after 10 ms, not 16 x 10. */
    let yielding: Promise<void> | null = null;
    const yieldTurn = () =>
      (yielding ??= new Promise<void>((resolve) =>
        setImmediate(() => {
          yielding = null;
          lastYield = performance.now();
          resolve();
        }),
      ));
    const worker = async (agentNow: Agent) => {
      while (!signal.aborted && failure === null && next < slots.length) {
        // An agent that answers without I/O (seeded) would otherwise never let the event loop run: no cancel, no events.
        if (yielding || performance.now() - lastYield > YIELD_EVERY_MS) {
          await yieldTurn();
          if (signal.aborted || failure !== null || next >= slots.length) break;
        }
        const slot = slots[next++];
        const task: Task = tasks[slot.taskIndex];
        let attempt = 0;
        let changed = false;
        let lostReason: LostReason | null = null;
        let result;
        for (;;) {
          result = await runRollout(agentNow, task, {
            rolloutIndex: slot.rolloutIndex,
            evalRun: slot.evalRun,
            runs: config.runs,
            seed: config.seed,
            attemptSeed: agentSeed + attempt * 1_000_003,
            maxTurns: config.max_turns,
            signal,
          });
          if (signal.aborted) return;
          if (result.error !== undefined) {
            agentErrors++;
            firstAgentError ??= result.row.final_text as string;
            if (isFatal(result.error)) {
              failure = `the agent's server refused the run: ${firstAgentError}`;
              return;
            }
            if (landed === 0 && agentErrors >= Math.max(DEAD_AGENT_MIN_ERRORS, Math.min(2 * record.expectedRows, 64))) {
              failure = `the agent failed ${agentErrors} times and no rollout worked; first error: ${firstAgentError}`;
              return;
            }
          }
          if (!result.unusable) break;
          const key = `${slot.evalRun}:${slot.taskIndex}`;
          const used = rerolls.get(key) ?? 0;
          changed = true;
          if (used < config.k) {
            rerolls.set(key, used + 1);
            lost.rerolled++;
            bump(lost.rerolled_by, result.unusable);
            progress.rerolled();
            attempt++;
            continue;
          }
          lostReason = result.unusable;
          lost.lost++;
          bump(lost.lost_by, lostReason);
          break;
        }
        let row = result.row;
        if (lostReason) {
          row.usable = false;
          row.unusable_reason = lostReason;
          if (lostReason === 'agent_error' && landed === 0) {
            pending.push({ row, ordinal: slot.ordinal });
            continue;
          }
        }
        if (!lostReason) landed++;
        if (grader && !lostReason) {
          if (config.stamp_markers) stampInPlace(row);
          const lostNow = changed ? { ...lost, lost_by: { ...lost.lost_by }, rerolled_by: { ...lost.rerolled_by } } : null;
          await grader.submit(row, slot.ordinal, (stored) => commitRow(stored, lostNow));
        } else store(row, slot.ordinal, changed ? lost : null);
        while (landed > 0 && pending.length > 0) {
          const held = pending.shift()!;
          store(held.row, held.ordinal, lost);
        }
      }
    };
    const width = Math.max(1, Math.min(config.concurrency, slots.length));
    const running = Array.from({ length: width }, () => worker(agent!));
    const outcomes = await Promise.allSettled(running);
    await grader?.drain();
    commit.flush();
    const crashed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (crashed && failure === null) failure = crashed.reason instanceof Error ? crashed.reason.message : String(crashed.reason);
    if (failure === null && landed === 0 && pending.length > 0) failure = `no rollout worked; first error: ${firstAgentError}`;
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
  } finally {
    await agent?.close().catch(() => undefined);
    await judge?.close?.().catch(() => undefined);
  }
  const status: RunRecord['status'] = failure !== null ? 'failed' : signal.aborted ? 'cancelled' : 'done';
  finishRun(db, runId, status, failure, lost);
  if (status === 'done') await runFolds?.keep(db, runId);
  else runFolds?.stop();
  progress.finish(status, failure);
  ctx.publishChanges(); // the finished run's rows.changed and datasets.changed, now rather than on the feed's next tick
  return status;
}
