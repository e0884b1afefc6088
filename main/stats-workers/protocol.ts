// The messages between the engine's stats pool and its worker threads (plain structured-clone data, and a
// transferred port where a preload says so).
import type { MessagePort } from 'node:worker_threads';
import type { FoldPlacement } from './placement';
import type { JudgeSettings } from '../../shared/schema/run-settings';
import type { PairedTaskColumns } from '../../shared/stats/paired-tasks';
import type { StatName } from '../../shared/stats/registry/index';

/** A statistic's name in the registry (shared/stats/registry): the job kind. */
export type StatsJobKind = StatName;

/** Rows of the database: a dataset the worker reads itself (read-only; labeled_only: just its gold rows), or rows sent along. */
export type RowSource = { dataset_id: string; labeled_only?: boolean } | { rows: unknown[] };
/** Where a job's rows come from: the database (RowSource) or a JSONL file the worker reads itself. */
export type JobSource = RowSource | { path: string };

export interface StatsJobRequest {
  kind: StatsJobKind;
  /** Named row sets, by the registry's source names: rows, a/b, before/after, runs (a list), against (a list). */
  sources: Record<string, JobSource | JobSource[]>;
  /** The SDK's keyword arguments, snake_case, only those given (the functions apply their own defaults). */
  params: Record<string, unknown>;
  /** This surface's settings beside the SDK's arguments (per_task, list_limit). */
  options?: Record<string, unknown>;
  /** Extras beside the report that are only sent back when asked for (they can be large): 'per_task'. */
  want?: string[];
  /** A judge to load inside the worker (judge_trust): a CLI spec string, or checked settings. */
  judge?: { spec: string | JudgeSettings; rubricFile?: string };
}

/** What a job produces: the statistic's declared output (usually `{ report }` plus what some screens need beside it). */
export interface StatsJobOutput {
  report: Record<string, unknown>;
  per_task?: Record<string, number>;
  kept_indices?: number[];
  k_max?: number;
  /** curriculum with list_limit: the full size of each tier. */
  tier_sizes?: number[];
  points?: Array<Record<string, unknown>>;
  /** compare_report: the per-task table (shared/stats/paired-tasks). */
  task_table?: PairedTaskColumns;
}

export interface WorkerJobMessage {
  type: 'job';
  job_id: string;
  db_path: string | null;
  request: StatsJobRequest;
}

/** Read a file into the worker's cache ahead of the job that will name it (the CLI sends it before the engine opens). */
export interface WorkerPreloadMessage {
  type: 'preload';
  path: string;
  /** The `while-desk stats` subcommand the file is for: a statistic with a fold folds it ahead instead. */
  command?: string;
  /** The file's second half, from `cut` on, already being folded by a helper thread that answers on `reply`. */
  second?: { cut: number; reply: MessagePort };
  /** Where the job will fold this file (placement.ts; default 'split'): a job's second file is mostly folded elsewhere. */
  placement?: FoldPlacement;
}

export interface WorkerErrorShape {
  /** 'ValueError' for a StatsValueError (bad input), otherwise the error's class name. */
  kind: 'value' | 'not_found' | 'other';
  message: string;
}

export type WorkerReply =
  | { type: 'result'; job_id: string; output: StatsJobOutput; ms: number }
  | { type: 'error'; job_id: string; error: WorkerErrorShape }
  /** Every fold the worker held for keeping has been sent (after WorkerFlushMessage). */
  | { type: 'keeps-flushed' };

/** A closing pool asks its worker for the folds it has not sent yet (they are sent a moment after each job). */
export interface WorkerFlushMessage {
  type: 'flush-keeps';
}

/**
 * A whole dataset's fold a job made, sent after the job's reply, for the engine to keep (rows/kept-folds.ts):
 * the fold's state serialized, and the dataset version it read.
 */
export interface WorkerKeepMessage {
  type: 'keep';
  dataset_id: string;
  key: string;
  version: number;
  state: Uint8Array;
}

/** A stats worker's own start data (a pool's): it keeps a spare helper thread for the parts it folds elsewhere. */
export interface StatsWorkerData {
  keepSpareHelper?: boolean;
  /** Started ahead of any job: it loads its job code at once and starts its spare helper a moment later (stats-worker.ts). */
  spareLater?: boolean;
  /** Its jobs read datasets: the database reader is loaded ahead too. */
  readsDatasets?: boolean;
}
