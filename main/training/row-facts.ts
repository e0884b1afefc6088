// What the selection pass of a training export keeps of each row: its task key and reward for the group tally, the
// eval-overlap projection, the selectors' facts, never the row itself. Made on the engine thread or, page by page,
// on an export thread; the pass then gathers them in stored order (selection-pass.ts).
import { parsePyJson } from '../../shared/schema/py-json';
import { entryTaskKey, leakFact, rlFacts, sftFacts, type RlFacts, type SftFacts } from '../../shared/training/index';
import { scalarReward } from '../../shared/training/row-gates';
import { pageRows, type PageStatements } from './convert-page';

type Obj = Record<string, unknown>;

export interface FactsOptions {
  sft: boolean;
  rl: boolean;
  /** Keep the eval-overlap projection (decontaminate against eval datasets). */
  projection: boolean;
  /** select "all"'s min_reward filter, or null. */
  minReward: number | null;
  /** The SFT selector's own min_reward: rows below it are counted as not passing, and their costlier facts go unread. */
  sftMinReward: number;
}

export interface RowFacts {
  ordinal: number;
  task: string;
  reward: unknown;
  /** Below min_reward (select "all" only). */
  below: boolean;
  projection: { prompt: unknown; scenario_id: unknown; task_id: unknown } | null;
  sft: SftFacts | null;
  rl: RlFacts | null;
}

/** The rows that the min_reward rule (select "all") keeps: reward, else qwen_reward, at least min_reward. */
function passesMinReward(row: Obj, min: number | null): boolean {
  if (min === null) return true;
  const value = scalarReward(row);
  return value !== null && value >= min;
}

/** A row's facts; `index` is its place in the pass (the selectors' tie-break). */
export function rowFacts(row: Obj, ordinal: number, index: number, options: FactsOptions): RowFacts {
  const plain = !options.sft && !options.rl;
  return {
    ordinal,
    task: entryTaskKey(row),
    reward: row.reward,
    below: plain && !passesMinReward(row, options.minReward),
    projection: options.projection ? { prompt: row.prompt ?? null, scenario_id: row.scenario_id ?? null, task_id: row.task_id ?? null } : null,
    sft: options.sft ? sftFacts(row, index, leakFact(row), options.sftMinReward) : null,
    rl: options.rl ? rlFacts(row, index, 'drop', true) : null,
  };
}

/** The facts of one page of rows (`first`: the pass index of its first row). */
export function factsPage(statements: PageStatements, datasetId: string, ordinals: ArrayLike<number>, first: number, options: FactsOptions): RowFacts[] {
  const jsons = pageRows(statements, datasetId, ordinals);
  const out: RowFacts[] = new Array(jsons.length);
  for (let i = 0; i < jsons.length; i++) out[i] = rowFacts(parsePyJson(jsons[i]) as Obj, ordinals[i], first + i, options);
  return out;
}
