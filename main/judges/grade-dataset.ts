// Grades an existing dataset's rows into a NEW dataset (kind 'graded', parent_id = the source): the `grade` job.
// The judge is loaded (and so checked) by the caller before anything is written here.
import { ApiError } from '../../shared/api/define';
import type { GradeTrust } from '../../shared/api/grade';
import type { Db } from '../db/connection';
import { findDataset, insertDataset, setDatasetMeta, setDatasetStatus } from '../db/repos/datasets';
import { stampedRow } from '../../shared/stats/markers/stamp';
import { appendRows, parsedRowPages, stampTrust, toStoredRow } from '../rows/index';
import { applyVerdict, newScoringRunId } from './apply-verdict';
import { emptyStatusCounts, type JudgeStatus, type RowJudge } from './judge-types';

export interface GradeOptions {
  judge: RowJudge;
  /** What the judge was given as (a file path, llm:<model>): recorded as the dataset's source. */
  judgeSpec: string;
  name?: string;
  signal?: AbortSignal;
  onProgress?: (progress: { done: number; total: number; counts: Record<JudgeStatus, number> }) => void;
  /** The trust check run once every row is written (judge_trust over the graded rows); stamped on each row. */
  checkTrust?: (datasetId: string) => Promise<GradeTrust>;
  /** Stamp the style, trace and grounding markers on each row before its judge sees it (default true; docs/markers.md). */
  stampMarkers?: boolean;
}

export interface GradeResult {
  dataset_id: string;
  parent_id: string;
  scoring_run_id: string;
  judge_name: string;
  rows: number;
  graded: number;
  judge_status_counts: Record<JudgeStatus, number>;
  /** Mean reward over the rows the judge scored (status ok); null when none. */
  mean_reward: number | null;
  /** True when rows were there but the judge scored none of them. */
  all_failed: boolean;
  first_problem: string | null;
  /** judge_meta.trust of every graded row; null without a checkTrust. */
  trust: GradeTrust | null;
}

export interface StartedGrade {
  datasetId: string;
  total: number;
  done: Promise<GradeResult>;
}

/** Rows per page read from the source, judged as one batch and written in one transaction. */
const PAGE = 256;

/** Creates the graded dataset at once (its id is the job's id) and grades into it; `done` settles at the end. */
export function startGrade(db: Db, sourceId: string, options: GradeOptions): StartedGrade {
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
  const done = gradeInto(db, { sourceId, datasetId, scoringRunId, total: source.rows }, options).catch((error: unknown) => {
    setDatasetStatus(db, datasetId, error instanceof ApiError && error.code === 'cancelled' ? 'cancelled' : 'failed');
    throw error;
  });
  return { datasetId, total: source.rows, done };
}

async function gradeInto(db: Db, target: { sourceId: string; datasetId: string; scoringRunId: string; total: number }, options: GradeOptions): Promise<GradeResult> {
  const { judge, signal } = options;
  const { sourceId, datasetId, scoringRunId } = target;
  const counts = emptyStatusCounts();
  let done = 0;
  let rewardSum = 0;
  let firstProblem: string | null = null;
  // The source's rows as every reader sees them: with the gold of their labels.
  for (const batch of parsedRowPages(db, sourceId, PAGE)) {
    if (signal?.aborted) throw new ApiError('cancelled', 'grading was cancelled');
    // The stamped markers go on first: the judge's own markers, merged by applyVerdict, win on a name clash.
    const rows = options.stampMarkers === false ? batch.map((entry) => entry.row) : batch.map((entry) => stampedRow(entry.row));
    const verdicts = await judge.judgeBatch(rows, signal).catch((error: unknown) => {
      throw signal?.aborted ? new ApiError('cancelled', 'grading was cancelled') : error;
    });
    appendRows(
      db,
      datasetId,
      rows.map((row, i) => {
        const verdict = verdicts[i];
        counts[verdict.judge_status]++;
        if (verdict.judge_status === 'ok' && verdict.reward !== null) rewardSum += verdict.reward;
        else firstProblem ??= `row ${batch[i].ordinal}: ${verdict.judge_status} ${JSON.stringify(verdict.judge_meta ?? {})}`;
        return toStoredRow(applyVerdict(row, verdict, { scoringRunId, index: batch[i].ordinal }), batch[i].ordinal);
      }),
    );
    done += rows.length;
    options.onProgress?.({ done, total: target.total, counts: { ...counts } });
  }
  const result: GradeResult = {
    dataset_id: datasetId,
    parent_id: sourceId,
    scoring_run_id: scoringRunId,
    judge_name: judge.name,
    rows: done,
    graded: counts.ok,
    judge_status_counts: counts,
    mean_reward: counts.ok > 0 ? Math.round((rewardSum / counts.ok) * 1e6) / 1e6 : null,
    all_failed: done > 0 && counts.ok === 0,
    first_problem: firstProblem,
    trust: null,
  };
  if (options.checkTrust) {
    if (signal?.aborted) throw new ApiError('cancelled', 'grading was cancelled');
    result.trust = await options.checkTrust(datasetId);
    stampTrust(db, datasetId, result.trust);
  }
  setDatasetMeta(db, datasetId, {
    scoring_run_id: scoringRunId,
    judge: judge.name,
    judge_spec: options.judgeSpec,
    parent_id: sourceId,
    judge_status_counts: counts,
    mean_reward: result.mean_reward,
    first_problem: firstProblem,
    trust: result.trust,
  });
  setDatasetStatus(db, datasetId, 'ready');
  return result;
}
