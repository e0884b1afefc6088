// A graded run holds a row waiting for its verdict as its text, columns and verdict stand-in (waiting-row.ts):
// what it stores must be exactly what storing the row graded in place stores, columns and JSON alike.
import { describe, expect, it } from 'vitest';
import type { JudgeVerdict } from '../../../main/judges/judge-types';
import { toStoredRow } from '../../../main/rows/index';
import { gradeInLoop } from '../../../main/sim/judge-row';
import { waitingRow } from '../../../main/sim/waiting-row';

type Obj = Record<string, unknown>;

const landed = (evalRun: number | undefined): Obj => ({
  schema_version: '1',
  scenario_id: 'refund-7',
  rollout_index: 3,
  prompt: 'Refund ORD-7, please',
  steps: [{ tool: 'refund', arguments: { order_id: 'ORD-7' }, result: 'ok' }],
  final_text: 'Refunded.',
  messages: [{ role: 'user', content: 'Refund ORD-7, please' }, { role: 'assistant', content: 'Refunded.' }],
  sampling: null,
  finish_reason: 'stop',
  model_version: 'seeded',
  lineage: { system_prompt_sha: 'abc', ...(evalRun === undefined ? {} : { eval_run: evalRun }) },
  reward: null,
  seed: 1,
  gold_reward: 1,
  privileged: { reference: 'refunded' },
});

const verdicts: JudgeVerdict[] = [
  { reward: 1, judge_status: 'ok', judge_name: 'j', reason: 'used a tool', judge_meta: { note: 'dropped for an ok row' } },
  { reward: 0.25, judge_status: 'ok', judge_name: 'j', markers: { tone: 1 } },
  { reward: null, judge_status: 'timeout', judge_name: 'j', judge_meta: { timeout_s: 10 } },
  { reward: null, judge_status: 'invalid_result', judge_name: 'j', judge_meta: { problem: 'x', failure_class: 'bad' } },
];

describe('a row waiting for its verdict', () => {
  it('stores the same columns and JSON as the row graded in place', () => {
    for (const evalRun of [undefined, 2]) {
      for (const verdict of verdicts) {
        const grade = (row: Obj, v: JudgeVerdict) => gradeInLoop(row, v, 'score_abc', 9);
        const waiting = waitingRow(landed(evalRun), 9, true);
        expect(waiting.row).toBeNull();
        expect(waiting.text).toBe(JSON.stringify(landed(evalRun)));
        const expected = toStoredRow(grade(landed(evalRun), verdict), 9);
        expect(waiting.stored(verdict, grade)).toEqual(expected);
        expect(waitingRow(landed(evalRun), 9, false).stored(verdict, grade)).toEqual(expected);
      }
    }
  });
});
