// pairs.judge: two datasets (or JSONL files) paired by task_key, the k-th row of a task in A with the k-th row of
// the same task in B (stored order), then judge_pairs with the pairwise model judge, both ways round. A is the
// pair's first side: the SDK's "chosen", so its winner "chosen" reads as A here.
import { ApiError } from '../../shared/api/define';
import type { PairsJudgeOutput } from '../../shared/api/pairs';
import type { ParsedInput } from '../../shared/api/index';
import { judgePairs, PairsInputError, type PairWinner } from '../../shared/judging/pairwise';
import { isObject, taskKey } from '../../shared/stats/keys';
import type { EngineContext } from '../engine/context';
import { findDataset } from '../db/repos/datasets';
import { savePairVerdicts } from '../db/repos/pairs';
import { readDatasetRows } from '../rows/index';
import { MissingFileError, readFileRows } from '../stats-workers/file-rows';
import { loadPairwiseJudge } from './pairwise-judge';

type Obj = Record<string, unknown>;
type Source = ParsedInput<'pairs.judge'>['a'];

async function rowsOf(ctx: EngineContext, source: Source, side: 'a' | 'b'): Promise<Obj[]> {
  if (typeof source === 'string') {
    if (!findDataset(ctx.db, source)) throw new ApiError('not_found', `${side.toUpperCase()}: no dataset or run with id "${source}" (see \`while-desk datasets\`)`, side);
    return readDatasetRows(ctx.db, source);
  }
  try {
    return (await readFileRows(source.path)).filter(isObject);
  } catch (error) {
    if (error instanceof MissingFileError || (error as NodeJS.ErrnoException).code === 'ENOENT') throw new ApiError('not_found', `${side.toUpperCase()}: no such file: ${source.path}`, side);
    throw new ApiError('bad_input', `${side.toUpperCase()}: ${(error as Error).message}`, side);
  }
}

function byTask(rows: Obj[]): Map<string, Obj[]> {
  const out = new Map<string, Obj[]>();
  for (const row of rows) {
    const key = taskKey(row);
    if (key === '') continue; // a row with no task cannot be paired
    const list = out.get(key);
    if (list) list.push(row);
    else out.set(key, [row]);
  }
  return out;
}

/** The pairs, in A's task order: { task, chosen: A's row, rejected: B's row, prompt }. */
export function pairByTask(a: Obj[], b: Obj[]): Array<{ task: string; index: number; chosen: Obj; rejected: Obj; prompt: unknown }> {
  const bTasks = byTask(b);
  const pairs = [];
  for (const [task, aRows] of byTask(a)) {
    const bRows = bTasks.get(task) ?? [];
    for (let i = 0; i < Math.min(aRows.length, bRows.length); i++) pairs.push({ task, index: i, chosen: aRows[i], rejected: bRows[i], prompt: aRows[i].prompt ?? bRows[i].prompt });
  }
  return pairs;
}

const SIDE = { chosen: 'A', rejected: 'B', tie: 'tie' } as const;

export async function runPairsJudge(ctx: EngineContext, input: ParsedInput<'pairs.judge'>): Promise<PairsJudgeOutput> {
  const [a, b] = [await rowsOf(ctx, input.a, 'a'), await rowsOf(ctx, input.b, 'b')];
  const pairs = pairByTask(a, b);
  const tasksA = byTask(a).size, tasksB = byTask(b).size;
  if (pairs.length === 0) throw new ApiError('bad_input', `A and B share no task (A has ${tasksA} tasks, B ${tasksB}; rows pair by task_key: scenario_id, task_id or prompt): nothing to judge`, 'b');
  const judge = await loadPairwiseJudge(input.judge, { timeoutMs: input.timeout_s === undefined ? undefined : input.timeout_s * 1000, concurrency: input.concurrency });
  try {
    const judged = await judgePairs(pairs, judge.judge, { swap: input.swap, concurrency: input.concurrency ?? 8, judge_name: judge.name });
    const counts = { A: 0, B: 0, tie: 0, failed: 0 };
    const outcomes = judged.pairs.map((pair, i) => {
      const res = pair.pairwise as { winner: keyof typeof SIDE | null; position_consistent: boolean | null; reasons: string[] };
      const winner = res.winner === null ? null : SIDE[res.winner];
      counts[winner ?? 'failed']++;
      return { task: pairs[i].task, winner, position_consistent: res.position_consistent, reasons: res.reasons };
    });
    // Two stored datasets: the verdicts are kept for the label desk's pair mode and its agreement.
    if (typeof input.a === 'string' && typeof input.b === 'string') {
      savePairVerdicts(ctx.db, input.a, input.b, judge.name, judged.pairs.map((pair, i) => ({ task: pairs[i].task, index: pairs[i].index, winner: (pair.pairwise as { winner: PairWinner | null }).winner })));
    }
    return { report: judged.report, counts, asked: judge.asked(), tasks_a: tasksA, tasks_b: tasksB, pairs: outcomes };
  } catch (error) {
    if (error instanceof PairsInputError) throw new ApiError('bad_input', error.message, 'a');
    throw error;
  } finally {
    await judge.close();
  }
}
