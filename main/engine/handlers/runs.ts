// Handlers for the runs domain: start, list, get, cancel, resume, wait (progress goes out as run.progress).
import type { runsApi } from '../../../shared/api/runs';
import { cancelRun, describeRun, listRunSummaries, resumeRun, startRun, waitForRun } from '../../sim/runs-service';
import type { HandlerMap } from './types';

export const runsHandlers: HandlerMap<keyof typeof runsApi> = {
  'runs.start': (input, ctx) => startRun(ctx, input),
  'runs.list': (_input, ctx) => listRunSummaries(ctx),
  'runs.get': (input, ctx) => describeRun(ctx, input.id),
  'runs.cancel': (input, ctx) => ({ cancelled: cancelRun(ctx, input.id) }),
  'runs.resume': (input, ctx) => resumeRun(ctx, input.id),
  'runs.wait': (input, ctx) => waitForRun(ctx, input.id, input.timeout_s),
};
