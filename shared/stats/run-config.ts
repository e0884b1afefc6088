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
/** No fact value seen yet (a row's value is never this). */
const NONE = Symbol('none');

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

export function isAnswered(reply: string): boolean {
  return !isBlank(splitReasoning(reply).answer);
}

function valueKey(v: unknown): string {
  return typeof v === 'string' ? `s:${v}` : `j:${JSON.stringify(v)}`;
}

export function runConfig(rows: readonly unknown[], nTasks: number, k: number): RunConfig {
  const seen = FACTS.map(() => new Map<string, unknown>());
  const last: unknown[] = FACTS.map(() => NONE); // skips re-keying a value equal (===) to the previous row's
  const facts: unknown[] = FACTS.map(() => null);
  let finishRows = 0;
  let lengthRows = 0;
  let replies = 0;
  let answered = 0;
  let unclosed = 0;
  let objectRows = 0;
  let graded = 0;
  for (const row of rows) {
    if (!isObject(row)) continue;
    objectRows++;
    rowFacts(row, facts);
    for (let f = 0; f < facts.length; f++) {
      const v = facts[f];
      if (v === null || v === undefined || last[f] === v) continue;
      last[f] = v;
      seen[f].set(valueKey(v), v);
    }
    if (typeof row.finish_reason === 'string') {
      finishRows++;
      if (row.finish_reason === 'length') lengthRows++;
    }
    const reply = replyOf(row);
    if (reply !== undefined) {
      replies++;
      // replyOf gives a non-blank reply or '': without a <think> block the answer is the reply itself.
      if (!reply.includes('<think>')) {
        if (reply !== '') answered++;
      } else {
        const split = splitReasoning(reply);
        if (!isBlank(split.answer)) answered++;
        if (split.unclosed) unclosed++;
      }
    }
    if (gradedReward(row) !== null) graded++;
  }
  const out: Record<string, unknown> = { n_tasks: nTasks, k };
  const mixed: string[] = [];
  for (const [i, f] of FACTS.entries()) {
    const values = seen[i];
    out[f] = values.size === 1 ? [...values.values()][0] : null;
    if (values.size > 1) mixed.push(f);
  }
  out.mixed = mixed;
  out.truncated_share = finishRows ? pyRound(lengthRows / finishRows, 4) : null;
  out.answered_share = replies ? pyRound(answered / replies, 4) : null;
  out.unclosed_think_share = replies ? pyRound(unclosed / replies, 4) : null;
  out.graded_share = objectRows ? pyRound(graded / objectRows, 4) : null;
  return out as unknown as RunConfig;
}

/** (answered, replies) over rows, as counted for answered_share (used by delta_report's answered-share test). */
export function answeredCounts(rows: readonly unknown[]): { answered: number; replies: number } {
  let answered = 0;
  let replies = 0;
  for (const row of rows) {
    if (!isObject(row)) continue;
    const reply = replyOf(row);
    if (reply === undefined) continue;
    replies++;
    if (isAnswered(reply)) answered++;
  }
  return { answered, replies };
}
