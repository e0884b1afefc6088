// Grades an existing dataset's rows into a NEW dataset (kind 'graded', parent_id = the source): `while-desk grade`.
import { ApiError } from '../../shared/api/define';
import type { Db } from '../db/connection';
import { findDataset, insertDataset, setDatasetMeta, setDatasetStatus } from '../db/repos/datasets';
import { appendRows, parsedRowPages, toStoredRow } from '../rows/index';
import { applyVerdict, newScoringRunId } from './apply-verdict';
import type { JudgeStatus, JudgeVerdict, RowJudge } from './judge-types';
import { errorText, failed } from './normalize-verdict';

export interface GradeOptions {
  judge: RowJudge;
  /** The spec as given (recorded as the dataset's source). */
  judgeSpec: string;
  name?: string;
  concurrency?: number;
  signal?: AbortSignal;
  onProgress?: (progress: { done: number; total: number }) => void;
}

export interface GradeResult {
  dataset_id: string;
  parent_id: string;
  scoring_run_id: string;
  judge_name: string;
  rows: number;
  graded: number;
  statuses: Record<JudgeStatus, number>;
  /** Mean reward over the rows the judge scored (status ok); null when none. */
  mean_reward: number | null;
  first_problem: string | null;
}

const PAGE = 256;

async function judgeAll(judge: RowJudge, rows: Array<Record<string, unknown>>, concurrency: number, signal?: AbortSignal): Promise<JudgeVerdict[]> {
  const verdicts: JudgeVerdict[] = new Array(rows.length);
  let next = 0;
  const worker = async () => {
    while (next < rows.length) {
      const index = next++;
      if (signal?.aborted) throw new ApiError('cancelled', 'grading was cancelled');
      try {
        verdicts[index] = await judge.judge(rows[index], signal);
      } catch (error) {
        if (signal?.aborted) throw new ApiError('cancelled', 'grading was cancelled');
        verdicts[index] = failed(judge.name, 'error', { error: errorText(error) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, rows.length) }, worker));
  return verdicts;
}

export async function gradeDataset(db: Db, sourceId: string, options: GradeOptions): Promise<GradeResult> {
  const source = findDataset(db, sourceId);
  if (!source) throw new ApiError('not_found', `no dataset or run with id "${sourceId}" (see \`while-desk datasets\`)`, sourceId);
  const { judge } = options;
  const scoringRunId = newScoringRunId();
  const datasetId = insertDataset(db, {
    name: options.name ?? `${source.name} graded by ${judge.name}`,
    kind: 'graded',
    status: 'grading',
    parentId: sourceId,
    source: options.judgeSpec,
    meta: { scoring_run_id: scoringRunId, judge: judge.name, judge_spec: options.judgeSpec, parent_id: sourceId, grade_pid: process.pid },
  });
  const statuses: Record<JudgeStatus, number> = { ok: 0, missing_reward: 0, invalid_result: 0, error: 0, timeout: 0 };
  let done = 0;
  let rewardSum = 0;
  let firstProblem: string | null = null;
  try {
    for (const batch of parsedRowPages(db, sourceId, PAGE)) {
      const rows = batch.map((entry) => entry.row);
      const verdicts = await judgeAll(judge, rows, options.concurrency ?? 8, options.signal);
      appendRows(
        db,
        datasetId,
        rows.map((row, i) => {
          const verdict = verdicts[i];
          statuses[verdict.judge_status]++;
          if (verdict.judge_status === 'ok' && verdict.reward !== null) rewardSum += verdict.reward;
          else firstProblem ??= `row ${batch[i].ordinal}: ${verdict.judge_status} ${JSON.stringify(verdict.judge_meta ?? {})}`;
          return toStoredRow(applyVerdict(row, verdict, { scoringRunId, index: batch[i].ordinal }), batch[i].ordinal);
        }),
      );
      done += rows.length;
      options.onProgress?.({ done, total: source.rows });
    }
  } catch (error) {
    setDatasetStatus(db, datasetId, error instanceof ApiError && error.code === 'cancelled' ? 'cancelled' : 'failed');
    throw error;
  }
  const result: GradeResult = {
    dataset_id: datasetId,
    parent_id: sourceId,
    scoring_run_id: scoringRunId,
    judge_name: judge.name,
    rows: done,
    graded: statuses.ok,
    statuses,
    mean_reward: statuses.ok > 0 ? Math.round((rewardSum / statuses.ok) * 1e6) / 1e6 : null,
    first_problem: firstProblem,
  };
  setDatasetMeta(db, datasetId, { scoring_run_id: scoringRunId, judge: judge.name, judge_spec: options.judgeSpec, parent_id: sourceId, statuses, mean_reward: result.mean_reward });
  setDatasetStatus(db, datasetId, 'ready');
  return result;
}
