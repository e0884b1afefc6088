// run_config(rows, n_tasks, k): the `config` block of pass_at (stats-semantics.md section 5.3).
import { isObject, pyStr, pyTruthy, type Row } from './keys';
import { pyRound } from './py-format';
import { gradedReward } from './readers';

export interface RunConfig {
  n_tasks: number;
  k: number;
  temperature: unknown;
  max_tokens: unknown;
  policy_version: unknown;
  judge_version: unknown;
  prompt_hash: unknown;
  user_model: unknown;
  writer_model: unknown;
  mixed: string[];
  truncated_share: number | null;
  answered_share: number | null;
  unclosed_think_share: number | null;
  graded_share: number | null;
}

const FACTS = ['temperature', 'max_tokens', 'policy_version', 'judge_version', 'prompt_hash', 'user_model', 'writer_model'] as const;

const isBlank = (s: string) => !/[^\s\x1c-\x1f\x85]/.test(s);

/** The row's facts, in FACTS order, written into `out` (one array for every row: no object per row). */
function rowFacts(row: Row, out: unknown[]): void {
  const sampling = isObject(row.sampling) ? row.sampling : EMPTY;
  const lineage = isObject(row.lineage) ? row.lineage : EMPTY;
  const judgeMeta = isObject(row.judge_meta) ? row.judge_meta : EMPTY;
  const pv = row.policy_version;
  const judgeVersion = pyTruthy(judgeMeta.version) ? judgeMeta.version : pyTruthy(lineage.judge_version) ? lineage.judge_version : null;
  let promptHash: unknown = pyTruthy(lineage.system_prompt_sha) ? lineage.system_prompt_sha : null;
  if (promptHash === null && pyTruthy(pv) && pyStr(pv).includes('@')) {
    const text = pyStr(pv);
    promptHash = text.slice(text.indexOf('@') + 1);
  }
  const writer = pyTruthy(row.writer_model) && pyStr(row.writer_model) !== 'pinned' ? pyStr(row.writer_model) : null;
  out[0] = sampling.temperature ?? null;
  out[1] = sampling.max_tokens ?? null;
  out[2] = pyTruthy(pv) ? pyStr(pv) : null;
  out[3] = judgeVersion;
  out[4] = promptHash;
  out[5] = pyTruthy(row.user_model) ? pyStr(row.user_model) : null;
  out[6] = writer;
}

const EMPTY: Row = Object.freeze({}) as Row;

/** The reply a row's answered/think shares look at; undefined when the row has no reply at all. */
export function replyOf(row: Row): string | undefined {
  const ft = row.final_text;
  if (typeof ft === 'string' && !isBlank(ft)) return ft;
  if (Array.isArray(row.messages)) {
    for (let i = row.messages.length - 1; i >= 0; i--) {
      const m = row.messages[i];
      if (isObject(m) && m.role === 'assistant' && typeof m.content === 'string' && !isBlank(m.content)) return m.content;
    }
    return '';
  }
  return typeof ft === 'string' ? '' : undefined;
}

/** split_reasoning, reconstructed: [answer with <think> blocks removed, whether an unclosed <think> remains]. */
export function splitReasoning(text: string): { answer: string; unclosed: boolean } {
  if (!text.includes('<think>')) return { answer: text, unclosed: false };
  const closed = text.replace(/<think>[\s\S]*?<\/think>/g, '');
  const open = closed.indexOf('<think>');
  if (open < 0) return { answer: closed, unclosed: false };
  return { answer: closed.slice(0, open), unclosed: true };
}

function valueKey(v: unknown): string {
  return typeof v === 'string' ? `s:${v}` : `j:${JSON.stringify(v)}`;
}

/**
 * run_config's running totals over rows seen one at a time (a fold): plain data, so a worker can send it to another
 * (structured clone) and two folds over consecutive parts of the rows merge into the fold of them all.
 */
export interface RunConfigFold {
  /** Per fact (FACTS order), each distinct value seen, keyed by valueKey, in first-seen order. */
  seen: Array<Map<string, unknown>>;
  /** The previous row's facts (undefined: none yet; a fact that is null or undefined is never kept): a value equal (===) to it is not re-keyed, a speed-up only. */
  last: unknown[];
  finishRows: number;
  lengthRows: number;
  replies: number;
  answered: number;
  unclosed: number;
  objectRows: number;
  graded: number;
}

export function runConfigFold(): RunConfigFold {
  return { seen: FACTS.map(() => new Map()), last: FACTS.map(() => undefined), finishRows: 0, lengthRows: 0, replies: 0, answered: 0, unclosed: 0, objectRows: 0, graded: 0 };
}

/** One array for every row's facts (no object per row); safe because add never re-enters. */
const rowFactValues: unknown[] = FACTS.map(() => null);

export function addRunConfigRow(fold: RunConfigFold, row: unknown): void {
  if (!isObject(row)) return;
  fold.objectRows++;
  rowFacts(row, rowFactValues);
  for (let f = 0; f < rowFactValues.length; f++) {
    const v = rowFactValues[f];
    if (v === null || v === undefined || fold.last[f] === v) continue;
    fold.last[f] = v;
    fold.seen[f].set(valueKey(v), v);
  }
  if (typeof row.finish_reason === 'string') {
    fold.finishRows++;
    if (row.finish_reason === 'length') fold.lengthRows++;
  }
  const reply = replyOf(row);
  if (reply !== undefined) {
    fold.replies++;
    // replyOf gives a non-blank reply or '': without a <think> block the answer is the reply itself.
    if (!reply.includes('<think>')) {
      if (reply !== '') fold.answered++;
    } else {
      const split = splitReasoning(reply);
      if (!isBlank(split.answer)) fold.answered++;
      if (split.unclosed) fold.unclosed++;
    }
  }
  if (gradedReward(row) !== null) fold.graded++;
}

/** The fold of `earlier`'s rows followed by `later`'s, written into `earlier`. */
export function mergeRunConfig(earlier: RunConfigFold, later: RunConfigFold): RunConfigFold {
  later.seen.forEach((values, f) => {
    for (const [key, value] of values) earlier.seen[f].set(key, value);
  });
  earlier.last = later.last;
  earlier.finishRows += later.finishRows;
  earlier.lengthRows += later.lengthRows;
  earlier.replies += later.replies;
  earlier.answered += later.answered;
  earlier.unclosed += later.unclosed;
  earlier.objectRows += later.objectRows;
  earlier.graded += later.graded;
  return earlier;
}

export function runConfigFrom(fold: RunConfigFold, nTasks: number, k: number): RunConfig {
  const out: Record<string, unknown> = { n_tasks: nTasks, k };
  const mixed: string[] = [];
  for (const [i, f] of FACTS.entries()) {
    const values = fold.seen[i];
    out[f] = values.size === 1 ? [...values.values()][0] : null;
    if (values.size > 1) mixed.push(f);
  }
  out.mixed = mixed;
  out.truncated_share = fold.finishRows ? pyRound(fold.lengthRows / fold.finishRows, 4) : null;
  out.answered_share = fold.replies ? pyRound(fold.answered / fold.replies, 4) : null;
  out.unclosed_think_share = fold.replies ? pyRound(fold.unclosed / fold.replies, 4) : null;
  out.graded_share = fold.objectRows ? pyRound(fold.graded / fold.objectRows, 4) : null;
  return out as unknown as RunConfig;
}

/** (answered, replies) of a fold's rows, as counted for answered_share (delta_report's answered-share test). */
export function answeredCounts(fold: RunConfigFold): { answered: number; replies: number } {
  return { answered: fold.answered, replies: fold.replies };
}
