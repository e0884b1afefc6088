// Plain-words text for the statistics screens: numbers as percents, intervals, notes split into sentences.
type Obj = Record<string, unknown>;

export function pct(value: unknown, digits = 1): string {
  return typeof value === 'number' && Number.isFinite(value) ? `${(value * 100).toFixed(digits)}%` : '—';
}

export function interval(ci: unknown): string {
  return Array.isArray(ci) && ci.length === 2 ? `${pct(ci[0])} – ${pct(ci[1])}` : 'no interval';
}

export function isInterval(ci: unknown): ci is [number, number] {
  return Array.isArray(ci) && ci.length === 2 && typeof ci[0] === 'number' && typeof ci[1] === 'number';
}

/** The SDK joins several notes with "; ": one sentence each, first letter up. */
export function noteSentences(note: unknown): string[] {
  if (typeof note !== 'string' || !note.trim()) return [];
  return note
    .split('; ')
    .map((part) => part.trim())
    .filter(Boolean)
    .map((part) => part[0].toUpperCase() + part.slice(1));
}

const CONFIG_WORDS: Record<string, string> = {
  temperature: 'temperature',
  max_tokens: 'max tokens',
  policy_version: 'policy',
  judge_version: 'judge version',
  prompt_hash: 'system prompt',
  user_model: 'user model',
  writer_model: 'writer model',
};

/** What the run's settings say, as short sentences (mixed settings and truncation are worth reading). */
export function configSentences(config: unknown): string[] {
  if (!config || typeof config !== 'object') return [];
  const c = config as Obj;
  const out: string[] = [];
  const same = Object.keys(CONFIG_WORDS)
    .filter((key) => c[key] !== null && c[key] !== undefined)
    .map((key) => `${CONFIG_WORDS[key]} ${String(c[key])}`);
  if (same.length) out.push(`Every row shares: ${same.join(', ')}.`);
  if (Array.isArray(c.mixed) && c.mixed.length) {
    out.push(`Rows differ in ${c.mixed.map((key) => CONFIG_WORDS[String(key)] ?? String(key)).join(', ')}: the numbers mix settings.`);
  }
  if (typeof c.truncated_share === 'number' && c.truncated_share > 0) out.push(`${pct(c.truncated_share)} of replies were cut off by the token limit.`);
  if (typeof c.answered_share === 'number' && c.answered_share < 1) out.push(`${pct(c.answered_share)} of rows have a non-empty answer.`);
  if (typeof c.unclosed_think_share === 'number' && c.unclosed_think_share > 0) out.push(`${pct(c.unclosed_think_share)} of replies stop inside an unclosed <think> block.`);
  if (typeof c.graded_share === 'number' && c.graded_share < 1) out.push(`${pct(c.graded_share)} of rows carry a reward; the rest are not counted.`);
  return out;
}
