// Grade jobs in the engine: load and check the judge, create the graded dataset, grade it in the background with
// grade.progress events, answer grade.wait and grade.cancel. One registry per engine; closing the engine stops them.
import { ApiError } from '../../shared/api/define';
import { gradeTrust, type GradeProgress, type GradeSummary, type gradeStartInput } from '../../shared/api/grade';
import type { z } from '../../shared/schema/zod';
import { isModelJudge, judgeLabel } from '../../shared/schema/run-settings';
import { findDataset } from '../db/repos/datasets';
import type { EngineContext } from '../engine/context';
import { startGrade } from './grade-dataset';
import { measureTrust, unmeasuredTrust } from './grade-trust';
import { emptyStatusCounts, type JudgeStatus } from './judge-types';
import { loadJudge } from './load-judge';
import { defaultJudgeWorkers } from './module-judge';

type StartInput = z.output<typeof gradeStartInput>;

interface GradeJob {
  id: string;
  parentId: string;
  controller: AbortController;
  done: Promise<GradeSummary>;
}

const registries = new WeakMap<EngineContext, Map<string, GradeJob>>();
/** Finished jobs stay answerable by grade.wait in this process (their summary is also in the dataset's meta). */
const KEEP_FINISHED = 64;

function registry(ctx: EngineContext): Map<string, GradeJob> {
  let jobs = registries.get(ctx);
  if (!jobs) {
    const created = new Map<string, GradeJob>();
    registries.set(ctx, created);
    ctx.onClose(async () => {
      for (const job of created.values()) job.controller.abort();
      await Promise.allSettled([...created.values()].map((job) => job.done));
    });
    jobs = created;
  }
  return jobs;
}

export async function startGradeJob(ctx: EngineContext, input: StartInput): Promise<{ grade_id: string; dataset_id: string; parent_id: string; judge_name: string; total: number }> {
  let judge;
  try {
    judge = await loadJudge(input.judge, {
      concurrency: input.concurrency,
      workers: input.concurrency === undefined ? undefined : Math.min(input.concurrency, defaultJudgeWorkers()),
    });
  } catch (error) {
    throw new ApiError('bad_input', error instanceof Error ? error.message : String(error), isModelJudge(input.judge) ? 'judge' : input.judge.path);
  }
  if (!findDataset(ctx.db, input.dataset_id)) {
    await judge.close();
    throw new ApiError('not_found', `no dataset or run with id "${input.dataset_id}" (see \`while-desk datasets\`)`, input.dataset_id);
  }
  const controller = new AbortController();
  const jobs = registry(ctx);
  let started;
  try {
    started = startGrade(ctx.db, input.dataset_id, {
      judge,
      judgeSpec: isModelJudge(input.judge) ? judgeLabel(input.judge) : input.judge.path,
      name: input.name,
      signal: controller.signal,
      onProgress: ({ done, total, counts }) => emit('grading', done, total, counts, null),
      checkTrust: (datasetId) => measureTrust(ctx, datasetId).catch((error: unknown) => unmeasuredTrust(error instanceof Error ? error.message : String(error))),
    });
  } catch (error) {
    await judge.close();
    throw error;
  }
  const id = started.datasetId;
  const emit = (status: GradeProgress['status'], done: number, total: number, counts: Record<JudgeStatus, number>, error: string | null) =>
    ctx.emit('grade.progress', { grade_id: id, dataset_id: id, parent_id: input.dataset_id, status, done, total, judge_status_counts: counts, error });
  const done = started.done.then(
    async (result) => {
      await judge.close();
      emit('done', result.rows, started.total, result.judge_status_counts, null);
      ctx.publishChanges(); // the graded copy's new status (datasets.changed, rows.changed), now
      return result;
    },
    async (error: unknown) => {
      await judge.close();
      const cancelled = error instanceof ApiError && error.code === 'cancelled';
      const message = error instanceof Error ? error.message : String(error);
      emit(cancelled ? 'cancelled' : 'failed', 0, started.total, emptyStatusCounts(), message);
      ctx.publishChanges(); // the graded copy's new status (datasets.changed, rows.changed), now
      throw error instanceof ApiError ? error : new ApiError('failed', `grading ${input.dataset_id} failed: ${message}`, 'dataset_id');
    },
  );
  done.catch(() => undefined); // observed by grade.wait; never an unhandled rejection
  jobs.set(id, { id, parentId: input.dataset_id, controller, done });
  while (jobs.size > KEEP_FINISHED) jobs.delete(jobs.keys().next().value as string);
  emit('grading', 0, started.total, emptyStatusCounts(), null);
  ctx.publishChanges(); // the new graded copy (datasets.changed), now
  return { grade_id: id, dataset_id: id, parent_id: input.dataset_id, judge_name: judge.name, total: started.total };
}

/** The job's summary: waits while it runs; a grade finished earlier (even by another process) is read back. */
export async function waitGrade(ctx: EngineContext, id: string): Promise<GradeSummary> {
  const job = registry(ctx).get(id);
  if (job) return job.done;
  const dataset = findDataset(ctx.db, id);
  if (!dataset || dataset.kind !== 'graded') throw new ApiError('not_found', `no grade job or graded dataset with id "${id}"`, 'grade_id');
  if (dataset.status !== 'ready') throw new ApiError(dataset.status === 'cancelled' ? 'cancelled' : 'failed', `grade ${id} is ${dataset.status}`, 'grade_id');
  const row = ctx.db.prepare('SELECT meta_json FROM datasets WHERE id = ?').get(id) as { meta_json: string | null } | undefined;
  const meta = JSON.parse(row?.meta_json ?? '{}') as Record<string, unknown>;
  const counts = { ...emptyStatusCounts(), ...((meta.judge_status_counts ?? meta.statuses ?? {}) as Record<string, number>) };
  return {
    dataset_id: id,
    parent_id: dataset.parent_id ?? String(meta.parent_id ?? ''),
    scoring_run_id: String(meta.scoring_run_id ?? ''),
    judge_name: String(meta.judge ?? ''),
    rows: dataset.rows,
    graded: counts.ok,
    judge_status_counts: counts,
    mean_reward: typeof meta.mean_reward === 'number' ? meta.mean_reward : null,
    all_failed: dataset.rows > 0 && counts.ok === 0,
    first_problem: typeof meta.first_problem === 'string' ? meta.first_problem : null,
    trust: gradeTrust.safeParse(meta.trust).data ?? null,
  };
}

export function cancelGrade(ctx: EngineContext, id: string): boolean {
  const job = registry(ctx).get(id);
  if (!job || job.controller.signal.aborted) return false;
  job.controller.abort(new ApiError('cancelled', 'grading was cancelled'));
  return true;
}
