// The indexed columns stored beside a row's JSON: what the UI sorts and filters on.
import { replyLength } from '../../shared/schema/conversation';
import type { StoredRow } from '../db/repos/rows';

type Obj = Record<string, unknown>;

function goldState(row: Obj): string {
  const gold = row.gold_reward;
  if (gold === 1) return 'pass';
  if (gold === 0) return 'fail';
  return 'none';
}

/** `json` is the row's text as it should be stored (the original line when the row came in unchanged). */
export function toStoredRow(row: Obj, ordinal: number, json: string = JSON.stringify(row)): StoredRow {
  const scenario = row.scenario_id;
  const lineage = row.lineage;
  const evalRun = lineage && typeof lineage === 'object' ? (lineage as Obj).eval_run : undefined;
  return {
    ordinal,
    scenarioId: scenario === undefined || scenario === null ? null : String(scenario),
    rolloutIndex: Number.isInteger(row.rollout_index) ? (row.rollout_index as number) : null,
    evalRun: Number.isInteger(evalRun) ? (evalRun as number) : null,
    reward: typeof row.reward === 'number' && Number.isFinite(row.reward) ? row.reward : null,
    goldState: goldState(row),
    replyLength: replyLength(row),
    json,
  };
}
