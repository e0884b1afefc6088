// The one status a run is shown with, by `runs`, `datasets`, the run page and the datasets list alike.
import type { RunStatus } from '../../shared/api/runs';
import type { DatasetSummary } from '../../shared/api/datasets';
import { runStates, type RunRecord } from '../db/repos/runs';
import type { EngineContext } from '../engine/context';
import { processAlive } from '../engine/process-alive';
import { activeRuns } from './run-engine';

/** 'running' in the database but neither going here nor in a live process: it was interrupted (crash, kill -9). */
export function shownStatus(ctx: EngineContext, id: string, stored: RunRecord['status'], pid: number | null): RunStatus {
  if (stored !== 'running' || activeRuns(ctx).has(id)) return stored;
  if (pid !== null && pid !== process.pid && processAlive(pid)) return 'running';
  return 'interrupted';
}

/** A run listed among datasets carries the run's own status (done, interrupted, ...), not the table's stored word. */
export function withRunStatuses<T extends Pick<DatasetSummary, 'id' | 'kind' | 'status'>>(ctx: EngineContext, datasets: T[]): T[] {
  if (!datasets.some((dataset) => dataset.kind === 'run')) return datasets;
  const states = runStates(ctx.db);
  return datasets.map((dataset) => {
    const state = dataset.kind === 'run' ? states.get(dataset.id) : undefined;
    return state ? { ...dataset, status: shownStatus(ctx, dataset.id, state.status, state.pid) } : dataset;
  });
}
