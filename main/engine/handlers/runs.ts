// Handlers for the runs domain: start, list, get, cancel, resume (progress goes out as run.progress).
import type { runsApi } from '../../../shared/api/runs';
import { listRuns } from '../../db/repos/runs';
import { activeRuns } from '../../sim/run-engine';
import { cancelRun, describeRun, resumeRun, startRun } from '../../sim/runs-service';
import type { HandlerMap } from './types';

export const runsHandlers: HandlerMap<keyof typeof runsApi> = {
  'runs.start': (input, ctx) => startRun(ctx, input),
  'runs.list': (_input, ctx) => {
    const active = activeRuns(ctx);
    return listRuns(ctx.db, (id) => active.has(id));
  },
  'runs.get': (input, ctx) => describeRun(ctx, input.id),
  'runs.cancel': (input, ctx) => ({ cancelled: cancelRun(ctx, input.id) }),
  'runs.resume': (input, ctx) => resumeRun(ctx, input.id),
};
