// Writes a verdict onto a copy of a row, as run_judge does (sdk-semantics §5.2); the original row is left unchanged.
import { randomBytes } from 'node:crypto';
import type { JudgeVerdict } from './judge-types';

type Obj = Record<string, unknown>;

const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

/** "score_" + 12 hex, one per grading pass. */
export function newScoringRunId(): string {
  return `score_${randomBytes(6).toString('hex')}`;
}

export interface ApplyVerdictOptions {
  scoringRunId: string;
  /** "grade" (a grading pass, in-loop grading) or "eval". */
  source?: 'grade' | 'eval';
  /** The row's position, for lineage.parent when it has no scenario_id or id. */
  index: number;
  model?: string;
  /** In-loop grading copies judge_meta off (§3.8); a grading pass keeps it. */
  keepMeta?: boolean;
  /** In-loop grading writes the verdict back onto the run's own row (§3.8) instead of a copy. */
  inPlace?: boolean;
}

/** Every key applyVerdict writes on a row; it leaves every other key as it was (verdict-json.ts relies on it). */
export const VERDICT_KEYS: ReadonlySet<string> = new Set(['reward', 'reason', 'judge_status', 'judge_name', 'judge_meta', 'failure_class', 'markers', 'lineage']);

export function applyVerdict(row: Obj, verdict: JudgeVerdict, options: ApplyVerdictOptions): Obj {
  const out: Obj = options.inPlace ? row : { ...row };
  out.reward = verdict.reward;
  if (verdict.reason) out.reason = verdict.reason;
  out.judge_status = verdict.judge_status;
  out.judge_name = verdict.judge_name;
  const meta = verdict.judge_meta && Object.keys(verdict.judge_meta).length > 0 ? verdict.judge_meta : undefined;
  if (meta && (options.keepMeta ?? true)) out.judge_meta = meta;
  if (meta && typeof meta.failure_class === 'string') out.failure_class = meta.failure_class;
  if (verdict.markers && Object.keys(verdict.markers).length > 0) {
    out.markers = { ...(isObject(row.markers) ? row.markers : {}), ...verdict.markers };
  }
  const lineage: Obj = isObject(row.lineage) ? { ...row.lineage } : {};
  const prior = lineage.scoring_run_id;
  lineage.scoring_run_id = options.scoringRunId;
  lineage.source = options.source ?? 'grade';
  lineage.judge = verdict.judge_name;
  lineage.parent = row.scenario_id ?? row.id ?? `row_${options.index}`;
  if (options.model) lineage.model = options.model;
  if (typeof prior === 'string' && prior !== options.scoringRunId) lineage.prior_scoring_run_id = prior;
  out.lineage = lineage;
  return out;
}
