// Handlers for the pairs domain: a pairwise judge over two datasets paired by task (main/judges/pairs-job.ts).
import type { pairsApi } from '../../../shared/api/pairs';
import { labelPair, pairQueue } from '../../judges/pair-labels';
import { runPairsJudge } from '../../judges/pairs-job';
import type { HandlerMap } from './types';

export const pairsHandlers: HandlerMap<keyof typeof pairsApi> = {
  'pairs.judge': (input, ctx) => runPairsJudge(ctx, input),
  'pairs.queue': (input, ctx) => pairQueue(ctx, input),
  'pairs.label': (input, ctx) => labelPair(ctx, input),
};
