// Handlers for the sweeps domain: start, list, get, cancel, resume, wait (progress goes out as sweep.progress).
import type { sweepsApi } from '../../../shared/api/sweeps';
import { cancelSweep, describeSweep, listSweepSummaries, resumeSweep, startSweep, waitForSweep } from '../../sweeps/sweeps-service';
import type { HandlerMap } from './types';

export const sweepsHandlers: HandlerMap<keyof typeof sweepsApi> = {
  'sweeps.start': (input, ctx) => startSweep(ctx, input),
  'sweeps.list': (_input, ctx) => listSweepSummaries(ctx),
  'sweeps.get': (input, ctx) => describeSweep(ctx, input.id),
  'sweeps.cancel': (input, ctx) => cancelSweep(ctx, input.id),
  'sweeps.resume': (input, ctx) => resumeSweep(ctx, input.id),
  'sweeps.wait': (input, ctx) => waitForSweep(ctx, input.id, input.timeout_s),
};
