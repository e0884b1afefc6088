// The messages between the engine's stats pool and its worker threads (plain structured-clone data).

export type StatsJobKind =
  | 'pass_at'
  | 'reliability'
  | 'curriculum'
  | 'judge_trust'
  | 'compare'
  | 'delta'
  | 'eval_variance'
  | 'holdout_size'
  | 'decontaminate';

/** Where a job's rows come from: a dataset the worker reads itself (read-only; labeled_only: just its gold rows), or rows sent along. */
export type RowSource = { dataset_id: string; labeled_only?: boolean } | { rows: unknown[] };

export interface StatsJobRequest {
  kind: StatsJobKind;
  /** Named row sets: rows, a/b, before/after, runs (a list), against (a list). */
  sources: Record<string, RowSource | RowSource[]>;
  /** The SDK's keyword arguments, snake_case, only those given (the functions apply their own defaults). */
  params: Record<string, unknown>;
  /** Extras beside the report that are only sent back when asked for (they can be large): 'per_task'. */
  want?: string[];
  /** A program judge to load inside the worker (judge_trust). */
  judge?: { spec: string; rubricFile?: string };
}

/** What a job produces: the SDK-shaped report plus what some screens need beside it. */
export interface StatsJobOutput {
  report: Record<string, unknown>;
  per_task?: Record<string, number>;
  kept_indices?: number[];
  k_max?: number;
  /** curriculum with list_limit: the full size of each tier. */
  tier_sizes?: number[];
  points?: Array<Record<string, unknown>>;
}

export interface WorkerJobMessage {
  type: 'job';
  job_id: string;
  db_path: string | null;
  request: StatsJobRequest;
}

export interface WorkerErrorShape {
  /** 'ValueError' for a StatsValueError (bad input), otherwise the error's class name. */
  kind: 'value' | 'not_found' | 'other';
  message: string;
}

export type WorkerReply =
  | { type: 'result'; job_id: string; output: StatsJobOutput; ms: number }
  | { type: 'error'; job_id: string; error: WorkerErrorShape };
