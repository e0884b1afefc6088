// Grading landed rows in the loop (sdk-semantics §3.8): a judge failure leaves reward null, never invented.
// Module judges gather the loop's row-by-row calls into batches themselves (main/judges/micro-batch.ts);
// judgeRows is the same for a caller that already holds a batch.
import { applyVerdict } from '../judges/apply-verdict';
import { errorText } from '../judges/error-text';
import type { JudgeVerdict, RowJudge } from '../judges/judge-types';
import type { StoredRow } from '../rows/index';
import { waitingRow, type WaitingRow } from './waiting-row';

type Obj = Record<string, unknown>;

/** A row cut by the length cap is not judged (§3.5). */
export function lengthCapVerdict(): JudgeVerdict {
  return {
    reward: null,
    judge_status: 'missing_reward',
    judge_name: 'length_cap',
    reason: 'truncated: hit the length cap, not judged',
    judge_meta: { scorer_kind: 'rule' },
  };
}

function judgeFailed(judge: RowJudge, error: unknown): JudgeVerdict {
  return { reward: null, judge_status: 'error', judge_name: judge.name, reason: `the judge failed: ${errorText(error)}`, judge_meta: { error: errorText(error) } };
}

export async function judgeRow(judge: RowJudge, row: Obj, signal?: AbortSignal): Promise<JudgeVerdict> {
  if (row.finish_reason === 'length') return lengthCapVerdict();
  try {
    return await judge.judge(row, signal);
  } catch (error) {
    if (signal?.aborted) throw error;
    return judgeFailed(judge, error);
  }
}

/** Verdicts for many rows in one batch (length-cap rows are not sent), in the rows' order. */
export function judgeRows(judge: RowJudge, rows: Obj[], signal?: AbortSignal): Promise<JudgeVerdict[]> {
  return judgeWaiting(
    judge,
    rows.map((row) => ({ capped: row.finish_reason === 'length', text: null, row })),
    signal,
  );
}

/** The same for rows waiting in the loop: a judge that takes JSON gets their text when every one waits as text. */
async function judgeWaiting(judge: RowJudge, rows: Array<Pick<WaitingRow, 'capped' | 'text' | 'row'>>, signal?: AbortSignal): Promise<JudgeVerdict[]> {
  const sent = rows.filter((row) => !row.capped);
  const texts = judge.judgeJson && sent.every((row) => row.text !== null) ? sent.map((row) => row.text!) : null;
  let verdicts: JudgeVerdict[];
  try {
    verdicts = texts ? await judge.judgeJson!(texts, signal) : await judge.judgeBatch(sent.map((row) => row.row ?? JSON.parse(row.text!)), signal);
  } catch (error) {
    if (signal?.aborted) throw error;
    verdicts = sent.map(() => judgeFailed(judge, error));
  }
  let next = 0;
  return rows.map((row) => (row.capped ? lengthCapVerdict() : verdicts[next++]));
}

/**
 * In-loop grading (§3.8): the verdict and lineage go onto the row. judge_meta is not copied for a scored row,
 * as the SDK does; for a row left without a reward it is, since it holds the reason (timeout_s, the error).
 */
export function gradeInLoop(row: Obj, verdict: JudgeVerdict, scoringRunId: string, ordinal: number): Obj {
  return applyVerdict(row, verdict, { scoringRunId, source: 'grade', index: ordinal, keepMeta: verdict.judge_status !== 'ok', inPlace: true });
}

export interface LoopGrader {
  /**
   * Grades a landed row off the rollout's path: `store` gets the graded row's stored form once its batch's verdicts
   * are in (for a judge that takes JSON, the row is stringified once, for the judge and for storage: waiting-row.ts).
   * Resolves at once while fewer than `maxInFlight` rows wait for a verdict, else when there is room again.
   */
  submit(row: Obj, ordinal: number, store: (stored: StoredRow) => void): Promise<void>;
  /** Waits for every submitted row to be stored (rethrows the first failure to store one). */
  drain(): Promise<void>;
}

/** Rows gathered per judgeBatch: whatever the rollouts landed in one turn of the event loop, up to this. */
const LOOP_BATCH = 256;

/**
 * In-loop grading that does not hold the rollouts up: rows landed in the same turn go to the judge as one batch,
 * so a module judge costs one message to its worker per batch, and the rollouts go on meanwhile.
 * When `signal` aborts, rows still waiting for a verdict are dropped (they are re-run on resume).
 */
export function loopGrader(judge: RowJudge, scoringRunId: string, signal?: AbortSignal, maxInFlight = 512): LoopGrader {
  let queue: Array<{ waiting: WaitingRow; ordinal: number; store: (stored: StoredRow) => void }> = [];
  const asText = judge.judgeJson !== undefined;
  let scheduled = false;
  let inFlight = 0;
  let failure: { error: unknown } | null = null;
  const batches = new Set<Promise<void>>();
  let roomWaiters: Array<() => void> = [];
  // One abort listener for the whole run, however many batches are out (not one per batch).
  const stopped = new Promise<'stopped'>((resolve) => {
    if (signal?.aborted) resolve('stopped');
    else signal?.addEventListener('abort', () => resolve('stopped'), { once: true });
  });
  const flush = () => {
    scheduled = false;
    if (queue.length === 0) return;
    const batch = queue;
    queue = [];
    const done = Promise.race([judgeWaiting(judge, batch.map((item) => item.waiting)), stopped])
      .then((verdicts) => {
        if (verdicts === 'stopped' || signal?.aborted) return; // the run is stopping: these rows are re-run on resume
        batch.forEach((item, i) => item.store(item.waiting.stored(verdicts[i], (row, verdict) => gradeInLoop(row, verdict, scoringRunId, item.ordinal))));
      })
      .catch((error: unknown) => {
        failure ??= { error };
      })
      .finally(() => {
        inFlight -= batch.length;
        batches.delete(done);
        const waiting = roomWaiters;
        roomWaiters = [];
        waiting.forEach((wake) => wake());
      });
    batches.add(done);
  };
  return {
    submit(row, ordinal, store) {
      queue.push({ waiting: waitingRow(row, ordinal, asText), ordinal, store });
      inFlight++;
      if (queue.length >= LOOP_BATCH) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
      return inFlight < maxInFlight ? Promise.resolve() : new Promise<void>((resolve) => roomWaiters.push(resolve));
    },
    async drain() {
      flush();
      while (batches.size > 0) await Promise.all([...batches]);
      if (failure) throw failure.error;
    },
  };
}
