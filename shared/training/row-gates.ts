// What the SDK's selectors ask of one row (score/optimize.py): its label, whether it is junk, whether it should have
// called a tool and did not, whether it is a trusted failure worth keeping, and its behavior signature (the hash of
// tool sequence, argument provenance, result statuses and reply shape that SFT selection spreads over).
import { pyDumps, pyNumber } from '../schema/py-json';
import { sha256 as sha256Hex } from './digest';
import { pyStr, pyTruthy } from '../stats/keys';
import { rowMessages, text } from './assistant-text';
import { pyStrip, pyWordCount } from '../text/py-text';
import { pyRepr, tuple, type PyReprValue, type PyTuple } from './py-repr';
import { asDict, DEGENERATE, HARNESS_LEAK, INFRA_STUB, looksFinished, TRUNCATED_REPLY_CHARS } from './reply-checks';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Number);
const stepsOf = (row: Obj): unknown[] => (Array.isArray(row.steps) ? row.steps : []);

const STRONG_ACTION = /\b(merge|refund|schedule|commit|deploy|rebase|checkout)\b/i;
const IDISH = /\b([A-Z]{2,}[-_]\d+|#\d+|asin\b|ord[-_]\w+|pr\s*#?\s*\d+)\b/i;
const QUESTION_END = /\?\s*$/;
const RAW_TOOL_MARKUP = /<\/?tool_call>/i;
const TOOL_SCHEMA_DUMP = /"name"\s*:\s*"[^"]+"[\s\S]{0,500}"description"\s*:[\s\S]{0,500}"parameters"\s*:/i;
const VERIFIED_SOURCES = ['claude', 'gold'];

/** Exactly 0 or 1 after float() (not a bool). */
function binary01(value: unknown): boolean {
  if (typeof value === 'boolean' || value === null || value === undefined) return false;
  const n = pyNumber(value);
  return n === 0 || n === 1;
}

/** _binary_label: reward, else qwen_reward, when it is exactly 0 or 1. */
export function binaryLabel(row: Obj): 0 | 1 | null {
  for (const key of ['reward', 'qwen_reward']) {
    const value = row[key];
    if (binary01(value)) return pyNumber(value) as 0 | 1;
  }
  return null;
}

/** _scalar_reward: reward, else qwen_reward, the first that is a number and not NaN. */
export function scalarReward(row: Obj): number | null {
  for (const key of ['reward', 'qwen_reward']) {
    const value = row[key];
    if (typeof value === 'boolean') continue;
    const n = pyNumber(value);
    if (n !== null && !Number.isNaN(n)) return n;
  }
  return null;
}

export function hasToolCall(row: Obj): boolean {
  for (const step of stepsOf(row)) if (isObj(step) && pyTruthy(step.tool)) return true;
  return rowMessages(row).some((m) => pyTruthy(m.tool_calls));
}

function situationWantsTools(row: Obj): boolean {
  if (pyTruthy(row.tool_known)) return true;
  if (text(row.ask_family) === 'tool') return true;
  if (pyTruthy(row.faults)) return true;
  const world = row.world_state;
  if (pyTruthy(world) && world !== 'unspecified' && world !== 'unknown') return true;
  const dims = row.scenario_dimensions;
  if (isObj(dims) && (pyTruthy(dims.intent) || pyTruthy(dims.tool))) return true;
  const prompt = text(row.prompt);
  return STRONG_ACTION.test(prompt) || IDISH.test(prompt);
}

/** An actionable situation where the agent never called a tool (never, for an agent that has none). */
export function isDoNothing(row: Obj, hasTools = true): boolean {
  return hasTools && situationWantsTools(row) && !hasToolCall(row);
}

function visibleText(row: Obj): string {
  const parts = [text(row.final_text)];
  for (const step of stepsOf(row)) if (isObj(step) && pyTruthy(step.text)) parts.push(pyStr(step.text));
  for (const m of rowMessages(row)) if (m.role === 'assistant') parts.push(text(m.content));
  return parts.join('\n');
}

/** Empty, errored, degenerate, leaked, raw tool markup, cut at the cap, ending on the user or a tool, or a stub question. */
export function isIncompleteJunk(row: Obj): boolean {
  const final = pyStrip(text(row.final_text));
  const hasTool = hasToolCall(row);
  if (!final) return true;
  if (final.toLowerCase().startsWith('<agent error')) return true;
  if (!hasTool && INFRA_STUB.test(final)) return true;
  if (DEGENERATE.test(final) || HARNESS_LEAK.test(final)) return true;
  const visible = visibleText(row);
  if (RAW_TOOL_MARKUP.test(visible) || TOOL_SCHEMA_DUMP.test(visible)) return true;
  if (Array.from(final).length > TRUNCATED_REPLY_CHARS && !looksFinished(final) && !pyTruthy(row.overlong)) return true;
  const messages = rowMessages(row);
  if (!messages.length) return !hasTool;
  const lastRole = text(messages[messages.length - 1].role);
  if (lastRole === 'user' || lastRole === 'tool') return true;
  return !hasTool && QUESTION_END.test(final) && pyWordCount(text(row.prompt)) <= 2;
}

export function hasTrainableContent(row: Obj): boolean {
  if (hasToolCall(row) || pyStrip(text(row.final_text))) return true;
  return rowMessages(row).some((m) => m.role === 'assistant' && (pyTruthy(m.content) || pyTruthy(m.tool_calls)));
}

/** reward 0 from a trusted grader (label_source claude* or gold*). */
export function isVerifiedZero(row: Obj): boolean {
  if (!binary01(row.reward) || pyNumber(row.reward) !== 0) return false;
  const src = text(row.label_source).toLowerCase();
  return VERIFIED_SOURCES.some((p) => src.startsWith(p));
}

function argProvenance(value: unknown, prompt: string, prior: () => string): string {
  const t = pyStrip(pyStr(value)).toLowerCase();
  if (!t) return 'absent';
  if (prompt.includes(t)) return 'user';
  if (prior().includes(t)) return 'derived';
  return 'invented';
}

/**
 * The earlier tool results as one lowered JSON text (an argument is "derived" when found in it), written only as far
 * as an argument not in the prompt needs: most arguments are, and a row's last result is never read.
 */
class PriorResults {
  private readonly results: unknown[] = [];
  private written = 0;
  private text = '';

  add(result: unknown): void {
    this.results.push(result ?? null);
  }

  readonly upToNow = (): string => {
    for (; this.written < this.results.length; this.written++) this.text += pyDumps(this.results[this.written]).toLowerCase();
    return this.text;
  };
}

/** The SDK's behavior_signature: 12 hex of sha256(repr((shape, refusal, length bucket))). */
export function behaviorSignature(row: Obj): string {
  const prompt = ('prompt' in row ? pyStr(row.prompt) : '').toLowerCase();
  const prior = new PriorResults();
  const shape: PyTuple[] = [];
  for (const raw of pyTruthy(row.steps) && Array.isArray(row.steps) ? row.steps : []) {
    const step = isObj(raw) ? raw : {};
    const tool = 'tool' in step ? pyStr(step.tool) : '';
    if (!tool) continue;
    const args = pyTruthy(step.arguments) ? step.arguments : {};
    const prov: PyReprValue[] = isObj(args)
      ? Object.keys(args)
          .sort()
          .map((k) => tuple(k, argProvenance(args[k], prompt, prior.upToNow)))
      : [];
    const result = asDict(step.result);
    shape.push(tuple(tool, tuple(...prov), 'status' in result ? pyStr(result.status) : ''));
    prior.add(step.result);
  }
  const final = ('final_text' in row ? pyStr(row.final_text) : '').toLowerCase();
  const refusal = ["can't", 'cannot', 'unable', "won't"].some((w) => final.includes(w));
  const payload = tuple(tuple(...shape), refusal, Math.min(Math.trunc(pyWordCount(final) / 12), 12));
  return sha256Hex(pyRepr(payload)).slice(0, 12);
}
