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
type Fact = (typeof FACTS)[number];

const isBlank = (s: string) => !/[^\s\x1c-\x1f\x85]/.test(s);

function rowFacts(row: Row): Record<Fact, unknown> {
  const sampling = isObject(row.sampling) ? row.sampling : {};
  const lineage = isObject(row.lineage) ? row.lineage : {};
  const judgeMeta = isObject(row.judge_meta) ? row.judge_meta : {};
  const pv = row.policy_version;
  const judgeVersion = pyTruthy(judgeMeta.version) ? judgeMeta.version : pyTruthy(lineage.judge_version) ? lineage.judge_version : null;
  let promptHash: unknown = pyTruthy(lineage.system_prompt_sha) ? lineage.system_prompt_sha : null;
  if (promptHash === null && pyTruthy(pv) && pyStr(pv).includes('@')) {
    const text = pyStr(pv);
    promptHash = text.slice(text.indexOf('@') + 1);
  }
  const writer = pyTruthy(row.writer_model) && pyStr(row.writer_model) !== 'pinned' ? pyStr(row.writer_model) : null;
  return {
    temperature: sampling.temperature ?? null,
    max_tokens: sampling.max_tokens ?? null,
    policy_version: pyTruthy(pv) ? pyStr(pv) : null,
    judge_version: judgeVersion,
    prompt_hash: promptHash,
    user_model: pyTruthy(row.user_model) ? pyStr(row.user_model) : null,
    writer_model: writer,
  };
}

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
  const seen = new Map<Fact, Map<string, unknown>>(FACTS.map((f) => [f, new Map()]));
  const last = new Map<Fact, unknown>(); // skips re-keying a value equal (===) to the previous row's
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
    const facts = rowFacts(row);
    for (const f of FACTS) {
      const v = facts[f];
      if (v === null || v === undefined || (last.has(f) && last.get(f) === v)) continue;
      last.set(f, v);
      seen.get(f)!.set(valueKey(v), v);
    }
    if (typeof row.finish_reason === 'string') {
      finishRows++;
      if (row.finish_reason === 'length') lengthRows++;
    }
    const reply = replyOf(row);
    if (reply !== undefined) {
      replies++;
      const split = splitReasoning(reply);
      if (!isBlank(split.answer)) answered++;
      if (split.unclosed) unclosed++;
    }
    if (gradedReward(row) !== null) graded++;
  }
  const out: Record<string, unknown> = { n_tasks: nTasks, k };
  const mixed: string[] = [];
  for (const f of FACTS) {
    const values = seen.get(f)!;
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
