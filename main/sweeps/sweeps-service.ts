// What the sweeps API does: check and store a sweep, launch it, list, describe, resume and wait for it.
import path from 'node:path';
import { ApiError } from '../../shared/api/define';
import type { SweepDetail, SweepStatus, SweepSummary } from '../../shared/api/sweeps';
import type { SweepReport } from '../../shared/platform/index';
import { getRun } from '../db/repos/runs';
import { getSweep, insertSweep, listSweeps, sweepRowCounts, sweepRuns, type SweepRecord } from '../db/repos/sweeps';
import type { EngineContext } from '../engine/context';
import { processAlive } from '../engine/process-alive';
import { settledWithin } from '../engine/settled-within';
import { statusOf } from '../sim/runs-service';
import { activeSweeps, cancelActiveSweep, launchSweep } from './sweep-engine';
import { checkSweepInput, type SweepStartInput } from './sweep-inputs';
import { sweepSlots } from './sweep-slots';

export async function startSweep(ctx: EngineContext, input: SweepStartInput) {
  const checked = await checkSweepInput(input);
  const { config } = checked;
  const base = config.tasks_path ? path.basename(config.tasks_path, path.extname(config.tasks_path)) : 'tasks';
  const name = input.name ?? `sweep ${base} × ${config.variants.length} variants × k=${config.k}`;
  const sweepId = insertSweep(ctx.db, { name, config, tasksText: checked.tasksText });
  launchSweep(ctx, sweepId);
  return { sweep_id: sweepId, labels: config.labels, expected_rows: expectedRows(config), tasks: config.tasks_count };
}

const expectedRows = (config: SweepRecord['config']) => sweepSlots(config).length * config.tasks_count * config.k;

function requireSweep(ctx: EngineContext, id: string): SweepRecord {
  const sweep = getSweep(ctx.db, id);
  if (!sweep) throw new ApiError('not_found', `no sweep with id "${id}" (see \`while-desk sweep --list\`)`, 'id');
  return sweep;
}

/**
 * 'running' in the database but going neither here nor in a live process: cancelled when sweeps.cancel released it
 * (no pid), else interrupted (closed, crash, kill -9).
 */
function shownSweepStatus(ctx: EngineContext, sweep: SweepRecord): SweepStatus {
  if (sweep.status !== 'running' || activeSweeps(ctx).has(sweep.id)) return sweep.status;
  if (sweep.pid === null) return 'cancelled';
  if (sweep.pid !== null && sweep.pid !== process.pid && processAlive(sweep.pid)) return 'running';
  return 'interrupted';
}

function summaryOf(ctx: EngineContext, sweep: SweepRecord): SweepSummary {
  const counts = sweepRowCounts(ctx.db, sweep.id);
  const report = sweep.report as SweepReport | null;
  return {
    id: sweep.id,
    name: sweep.name,
    status: shownSweepStatus(ctx, sweep),
    variants: sweep.config.variants.length,
    rows: [...counts.values()].reduce((a, b) => a + b, 0),
    expected_rows: expectedRows(sweep.config),
    best: report?.best ?? null,
    created_at: sweep.createdAt,
    finished_at: sweep.finishedAt,
    error: sweep.error,
  };
}

export function listSweepSummaries(ctx: EngineContext): SweepSummary[] {
  return listSweeps(ctx.db).map((sweep) => summaryOf(ctx, sweep));
}

export function describeSweep(ctx: EngineContext, id: string): SweepDetail {
  const sweep = requireSweep(ctx, id);
  const links = sweepRuns(ctx.db, id);
  const counts = sweepRowCounts(ctx.db, id);
  const perRun = sweep.config.tasks_count * sweep.config.k;
  const arms = sweepSlots(sweep.config).map((slot) => {
    const runId = links.find((l) => l.arm === slot.arm && l.rerun === slot.rerun)?.runId ?? null;
    return {
      arm: slot.arm,
      rerun: slot.rerun,
      label: slot.label,
      run_id: runId,
      status: runId && getRun(ctx.db, runId) ? statusOf(ctx, runId) : 'not started',
      rows: runId ? (counts.get(runId) ?? 0) : 0,
      expected_rows: perRun,
    };
  });
  return { ...summaryOf(ctx, sweep), config: sweep.config, arms, report: (sweep.report as SweepDetail['report']) ?? null };
}

/** Finished arms are kept, interrupted arms resume, missing arms start; a done sweep is left as it is. */
export function resumeSweep(ctx: EngineContext, id: string): { sweep_id: string; resumed: boolean; message: string } {
  const sweep = requireSweep(ctx, id);
  const status = shownSweepStatus(ctx, sweep);
  if (status === 'done') return { sweep_id: id, resumed: false, message: `sweep ${id} is already done; nothing to resume, nothing changed` };
  if (activeSweeps(ctx).has(id)) return { sweep_id: id, resumed: false, message: `sweep ${id} is already going here` };
  if (status === 'running') throw new ApiError('conflict', `sweep ${id} is still going in process ${sweep.pid}; wait for it`, 'id');
  const summary = summaryOf(ctx, sweep);
  launchSweep(ctx, id);
  return { sweep_id: id, resumed: true, message: `resuming: ${summary.expected_rows - summary.rows} of ${summary.expected_rows} rollouts to go` };
}

const CANCEL_WAIT_S = 30;

/** Stops a sweep going here: its current run is cancelled as runs.cancel does; finished rows stay, resume finishes it. */
export async function cancelSweep(ctx: EngineContext, id: string): Promise<{ sweep_id: string; cancelled: boolean; status: SweepStatus; message: string }> {
  const sweep = requireSweep(ctx, id);
  const active = activeSweeps(ctx).get(id);
  if (!active) {
    const status = shownSweepStatus(ctx, sweep);
    const message = status === 'running' ? `sweep ${id} is going in process ${sweep.pid}, not in this one; stop it there` : `sweep ${id} is ${status}; nothing to cancel, nothing changed`;
    return { sweep_id: id, cancelled: false, status, message };
  }
  // An agent or judge mid-request stops at its own abort; the answer does not wait on it forever.
  if (!(await cancelActiveSweep(active, CANCEL_WAIT_S))) {
    return { sweep_id: id, cancelled: true, status: 'running', message: `sweep ${id} was asked to stop; its current run is still stopping (see sweep.progress)` };
  }
  const summary = summaryOf(ctx, requireSweep(ctx, id));
  const message = summary.status === 'cancelled'
    ? `cancelled with ${summary.rows} of ${summary.expected_rows} rollouts kept; \`while-desk resume ${id}\` (or Resume) finishes it`
    : `sweep ${id} stopped as ${summary.status} before the cancel took effect`;
  return { sweep_id: id, cancelled: summary.status === 'cancelled', status: summary.status, message };
}

export async function waitForSweep(ctx: EngineContext, id: string, timeoutS?: number): Promise<{ sweep_id: string; status: SweepStatus; stopped: boolean }> {
  requireSweep(ctx, id);
  const active = activeSweeps(ctx).get(id);
  const stopped = active ? await settledWithin(active.done, timeoutS) : true;
  return { sweep_id: id, status: shownSweepStatus(ctx, requireSweep(ctx, id)), stopped };
}
