// A sweep going: each arm is one run (the first arm also re-run noise_runs - 1 times), one after the other; a run
// already there is kept when done, resumed when interrupted; the report is built when every run is done.
import { isModelJudge } from '../../shared/schema/run-settings';
import type { RunStartInput } from '../sim/runs-service';
import { resumeRun, startRun, statusOf, waitForRun } from '../sim/runs-service';
import { activeRuns } from '../sim/run-engine';
import { loadCheckedJudge } from '../sim/run-inputs';
import type { RowJudge } from '../judges/judge-types';
import { getRun } from '../db/repos/runs';
import { claimSweep, finishSweep, getSweep, linkSweepRun, releaseSweep, sweepRowCounts, sweepRuns, type SweepRecord } from '../db/repos/sweeps';
import type { EngineContext } from '../engine/context';
import { settledWithin } from '../engine/settled-within';
import { buildSweepReport } from './sweep-report-build';
import { sweepSlots, slotRunSettings, type SweepSlot } from './sweep-slots';

export interface ActiveSweep {
  id: string;
  controller: AbortController;
  done: Promise<SweepRecord['status']>;
}

const registries = new WeakMap<EngineContext, Map<string, ActiveSweep>>();
const PROGRESS_EVERY_MS = 250;

export function activeSweeps(ctx: EngineContext): Map<string, ActiveSweep> {
  let registry = registries.get(ctx);
  if (!registry) {
    const created = new Map<string, ActiveSweep>();
    registries.set(ctx, created);
    ctx.onClose(async () => {
      for (const sweep of created.values()) sweep.controller.abort();
      await Promise.allSettled([...created.values()].map((sweep) => sweep.done));
    });
    registry = created;
  }
  return registry;
}

export function launchSweep(ctx: EngineContext, sweepId: string): ActiveSweep {
  const registry = activeSweeps(ctx);
  const existing = registry.get(sweepId);
  if (existing) return existing;
  const controller = new AbortController();
  const active: ActiveSweep = { id: sweepId, controller, done: Promise.resolve('running') };
  active.done = execute(ctx, sweepId, controller.signal).finally(() => registry.delete(sweepId));
  registry.set(sweepId, active);
  return active;
}

/** The abort reason of sweeps.cancel; any other abort (the engine closing) leaves the sweep interrupted. */
const CANCELLED = 'sweep cancelled';

/** Stops a sweep going here the way runs.cancel stops a run; resolves true once it stopped, false after timeoutS. */
export function cancelActiveSweep(active: ActiveSweep, timeoutS: number): Promise<boolean> {
  active.controller.abort(CANCELLED);
  return settledWithin(active.done, timeoutS);
}

/** Thrown when an arm's run failed: the sweep is marked failed with this message. */
class ArmFailed extends Error {}

/** The shared judge, lent to each arm's run: the run's close() leaves it open; the sweep closes it at the end. */
function lend(judge: RowJudge): RowJudge {
  const judgeJson = judge.judgeJson;
  return {
    name: judge.name,
    judge: (row, signal) => judge.judge(row, signal),
    judgeBatch: (rows, signal) => judge.judgeBatch(rows, signal),
    // The faster path for rows already stringified (module judges), when the judge has it.
    ...(judgeJson ? { judgeJson: (texts: string[], signal?: AbortSignal) => judgeJson.call(judge, texts, signal) } : {}),
    close: async () => undefined,
  };
}

async function execute(ctx: EngineContext, sweepId: string, signal: AbortSignal): Promise<SweepRecord['status']> {
  const sweep = getSweep(ctx.db, sweepId);
  if (!sweep) throw new Error(`no sweep with id "${sweepId}"`);
  claimSweep(ctx.db, sweepId);
  // A program judge (module, rules) is the same for every arm: loaded once, not once per run. An LLM judge takes
  // each run's seed, so each run loads its own.
  let shared: RowJudge | null = null;
  const slots = sweepSlots(sweep.config);
  const total = slots.length * sweep.config.tasks_count * sweep.config.k;
  let current: SweepSlot | null = null;
  const emit = (status: 'running' | 'done' | 'failed' | 'interrupted' | 'cancelled', error: string | null = null) => {
    const done = [...sweepRowCounts(ctx.db, sweepId).values()].reduce((a, b) => a + b, 0);
    ctx.emit('sweep.progress', { sweep_id: sweepId, status, arm: current?.arm ?? null, rerun: current?.rerun ?? null, label: current?.label ?? null, done, total, error });
  };
  const ticker = setInterval(() => emit('running'), PROGRESS_EVERY_MS);
  // Stopping the sweep (the engine closing) stops the arm's run too, whichever was registered first; it resumes later.
  let currentRun: string | null = null;
  const stopRun = () => currentRun && activeRuns(ctx).get(currentRun)?.controller.abort();
  signal.addEventListener('abort', stopRun);
  try {
    for (const slot of slots) {
      if (signal.aborted) break;
      current = slot;
      if (!shared && !isModelJudge(sweep.config.judge)) shared = await loadCheckedJudge(sweep.config.judge, { seed: 0, concurrency: sweep.config.concurrency });
      if (signal.aborted) break;
      const runId = await ensureRun(ctx, sweep, slot, shared ? lend(shared) : undefined);
      currentRun = runId;
      if (signal.aborted) stopRun();
      const { status } = await waitForRun(ctx, runId);
      if (status === 'failed') {
        const run = getRun(ctx.db, runId);
        throw new ArmFailed(`arm "${slot.label}"${slot.rerun ? ` (noise re-run ${slot.rerun})` : ''}: run ${runId} failed: ${run?.error ?? 'unknown error'}`);
      }
      if (status !== 'done') break; // cancelled: sweeps.cancel or the engine closing; the sweep stays resumable
    }
    current = null;
    if (signal.aborted || slots.some((slot) => !isDone(ctx, sweepId, slot))) {
      // Cancelled by a person: no process holds it any more (shown cancelled); otherwise it reads interrupted.
      const cancelled = signal.aborted && signal.reason === CANCELLED;
      if (cancelled) releaseSweep(ctx.db, sweepId);
      emit(cancelled ? 'cancelled' : 'interrupted');
      return 'running';
    }
    const outcome = buildSweepReport(ctx.db, sweepId, sweep.config);
    finishSweep(ctx.db, sweepId, outcome);
    emit(outcome.status, outcome.error);
    return outcome.status;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    finishSweep(ctx.db, sweepId, { status: 'failed', error: message, report: null });
    emit('failed', message);
    return 'failed';
  } finally {
    clearInterval(ticker);
    signal.removeEventListener('abort', stopRun);
    await shared?.close().catch(() => undefined);
  }
}

function isDone(ctx: EngineContext, sweepId: string, slot: SweepSlot): boolean {
  const link = sweepRuns(ctx.db, sweepId).find((l) => l.arm === slot.arm && l.rerun === slot.rerun);
  return link !== undefined && statusOf(ctx, link.runId) === 'done';
}

/** The slot's run: started (and linked in the same transaction) when missing, resumed when interrupted, kept when done. */
async function ensureRun(ctx: EngineContext, sweep: SweepRecord, slot: SweepSlot, judge?: RowJudge): Promise<string> {
  const link = sweepRuns(ctx.db, sweep.id).find((l) => l.arm === slot.arm && l.rerun === slot.rerun);
  if (!link) {
    const input: RunStartInput = { ...slotRunSettings(sweep, slot), tasks_text: sweep.tasksText };
    const started = await startRun(ctx, input, { judge, onStored: (runId) => linkSweepRun(ctx.db, sweep.id, { arm: slot.arm, rerun: slot.rerun, runId }) });
    return started.run_id;
  }
  const status = statusOf(ctx, link.runId);
  if (status !== 'done' && !activeRuns(ctx).has(link.runId)) await resumeRun(ctx, link.runId);
  return link.runId;
}
