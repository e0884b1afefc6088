// The label desk's pair mode (pairs.queue, pairs.label): the pairs of two stored datasets, each with the latest
// judge run's winner and people's picks, and the pairwise agreement between them (shared/judging/pair-agreement.ts).
import { ApiError } from '../../shared/api/define';
import type { PairsQueueOutput } from '../../shared/api/pairs';
import type { ParsedInput } from '../../shared/api/index';
import { pairAgreement } from '../../shared/judging/pair-agreement';
import type { EngineContext } from '../engine/context';
import { findDataset } from '../db/repos/datasets';
import { appendPairLabel, currentPairPicks, pairId, pairVerdicts } from '../db/repos/pairs';
import { readDatasetRows } from '../rows/index';
import { pairByTask } from './pairs-job';

const text = (value: unknown) => (typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value));

function requireBoth(ctx: EngineContext, a: string, b: string): void {
  for (const [side, id] of [['A', a], ['B', b]] as const) {
    if (!findDataset(ctx.db, id)) throw new ApiError('not_found', `${side}: no dataset or run with id "${id}" (see \`while-desk datasets\`)`, side.toLowerCase());
  }
}

export function pairQueue(ctx: EngineContext, input: ParsedInput<'pairs.queue'>): PairsQueueOutput {
  requireBoth(ctx, input.a, input.b);
  const pairs = pairByTask(readDatasetRows(ctx.db, input.a), readDatasetRows(ctx.db, input.b));
  const verdicts = pairVerdicts(ctx.db, input.a, input.b);
  const picks = currentPairPicks(ctx.db, input.a, input.b);
  const items = pairs.map((p) => {
    const id = pairId(p.task, p.index);
    return {
      task: p.task,
      index: p.index,
      prompt: text(p.prompt),
      a_text: text(p.chosen.final_text),
      b_text: text(p.rejected.final_text),
      judge: verdicts.byPair.get(id) ?? null,
      my_pick: (input.annotator ? picks.get(id)?.byAnnotator.get(input.annotator) : undefined) ?? null,
    };
  });
  const agreement = pairAgreement(items.map((item) => ({ pair_key: `${item.task}#${item.index}`, judge: item.judge, human: picks.get(pairId(item.task, item.index))?.latest ?? null })));
  return { pairs: items, judge: verdicts.judge, agreement };
}

export function labelPair(ctx: EngineContext, input: ParsedInput<'pairs.label'>): { label_id: number } {
  requireBoth(ctx, input.a, input.b);
  const pairs = pairByTask(readDatasetRows(ctx.db, input.a), readDatasetRows(ctx.db, input.b));
  if (!pairs.some((p) => p.task === input.task && p.index === input.index)) throw new ApiError('not_found', `A and B have no pair for task "${input.task}" at index ${input.index}`, 'task');
  return { label_id: appendPairLabel(ctx.db, input.a, input.b, { task: input.task, index: input.index }, input.annotator, input.pick) };
}
