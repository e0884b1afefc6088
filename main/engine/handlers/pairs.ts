// Handlers for the pairs domain: a pairwise judge over two datasets paired by task (main/judges/pairs-job.ts).
import type { pairsApi } from '../../../shared/api/pairs';
import { runPairsJudge } from '../../judges/pairs-job';
import type { HandlerMap } from './types';

export const pairsHandlers: HandlerMap<keyof typeof pairsApi> = {
  'pairs.judge': (input, ctx) => runPairsJudge(ctx, input),
};
