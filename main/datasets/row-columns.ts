// The indexed columns stored beside a row's JSON: what the UI sorts and filters on.
import { replyLength } from '../../shared/schema/conversation';
import type { StoredRow } from '../db/repos/rows';

export type RowColumns = Omit<StoredRow, 'ordinal' | 'json'>;

type Obj = Record<string, unknown>;

function goldState(row: Obj): string {
  const gold = row.gold_reward;
  if (gold === 1) return 'pass';
  if (gold === 0) return 'fail';
  return 'none';
}

export function rowColumns(row: Obj): RowColumns {
  const scenario = row.scenario_id;
  const lineage = row.lineage;
  const evalRun = lineage && typeof lineage === 'object' ? (lineage as Obj).eval_run : undefined;
  return {
    scenarioId: scenario === undefined || scenario === null ? null : String(scenario),
    rolloutIndex: Number.isInteger(row.rollout_index) ? (row.rollout_index as number) : null,
    evalRun: Number.isInteger(evalRun) ? (evalRun as number) : null,
    reward: typeof row.reward === 'number' && Number.isFinite(row.reward) ? row.reward : null,
    goldState: goldState(row),
    replyLength: replyLength(row),
  };
}

export function toStoredRow(row: Obj, ordinal: number): StoredRow {
  return { ordinal, ...rowColumns(row), json: JSON.stringify(row) };
}
