// A run's progress: counts, rollouts per second and ETA, sent as run.progress about ten times a second.
import type { RolloutsLost, RunStatus } from '../../shared/api/runs';
import type { EngineContext } from '../engine/context';

const EVERY_MS = 100;

export interface RunProgressTracker {
  rowLanded(): void;
  rerolled(): void;
  finish(status: RunStatus, error: string | null): void;
}

export function createProgress(ctx: EngineContext, runId: string, total: number, alreadyDone: number, lost: RolloutsLost): RunProgressTracker {
  const started = performance.now();
  let done = alreadyDone;
  let last = 0;
  const send = (status: RunStatus, error: string | null) => {
    const elapsed = (performance.now() - started) / 1000;
    const rate = elapsed > 0 ? (done - alreadyDone) / elapsed : 0;
    const left = total - done;
    ctx.emit('run.progress', {
      run_id: runId,
      status,
      done,
      total,
      rollouts_per_s: Math.round(rate * 10) / 10,
      eta_s: status !== 'running' ? 0 : rate > 0 ? Math.round(left / rate) : null,
      lost: lost.lost,
      rerolled: lost.rerolled,
      error,
    });
  };
  const maybeSend = () => {
    const now = performance.now();
    if (now - last < EVERY_MS) return;
    last = now;
    send('running', null);
  };
  send('running', null);
  return {
    rowLanded() {
      done++;
      maybeSend();
    },
    rerolled: maybeSend,
    finish: send,
  };
}
