// training_rows, one source row at a time (sdk-semantics §8.3): the conversation in wire form, its loss mask, the
// tool schemas, the grade and lineage carried across, and with `unroll` one sample per assistant turn. Key order is
// the SDK's, so the file written from these rows is its file byte for byte.
import { conversation } from '../schema/conversation';
import { scrubValue } from '../schema/export-row';
import { sha1Hex } from '../stats/hash';
import { pyStr, pyTruthy } from '../stats/keys';
import { convertMessages, lossMask, type CutStats, type MaskMode, type WireMessage } from './wire';

type Obj = Record<string, unknown>;

/** The keys a training row carries from its source row: the grade, provenance, sampling facts, the 14 axes. */
export const CARRY_KEYS = [
  'reward', 'qwen_reward', 'reason', 'prompt', 'scenario_id', 'world_state', 'faults', 'fault_detected', 'label_source',
  'failure_class', 'judge_status', 'judge_name', 'lineage', 'logprob', 'n_tokens', 'token_logprobs', 'sampling',
  'policy_version', 'writer_model', 'user_model', 'usage',
  'tier', 'ask_family', 'ask', 'stance', 'tone', 'texture', 'vagueness', 'phrasing', 'pressure', 'user', 'history', 'length',
  'intent_known', 'tool_known',
] as const;

export interface TrainingRowOptions {
  systemPrompt: string;
  tools: unknown[];
  stripThink: boolean;
  maskMode: MaskMode;
  unroll: boolean;
  maxToolOutputChars: number | null;
}

export interface TrainingEntry extends Obj {
  messages: WireMessage[];
  loss_mask: number[];
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Number);

/** A platform pull's tool_trace ({tool, input, output}) read as steps, when the row has neither messages nor steps. */
function bridged(row: Obj): Obj {
  if (pyTruthy(row.messages) || pyTruthy(row.steps) || !Array.isArray(row.tool_trace)) return row;
  const steps = row.tool_trace.filter(isObj).map((step) => ({ tool: step.tool ?? null, arguments: step.input ?? null, result: step.output ?? null }));
  return { ...row, steps };
}

/** The messages a row trains on: its own, else the conversation rebuilt from prompt and steps. */
export function sourceMessages(row: Obj): unknown {
  return pyTruthy(row.messages) ? row.messages : conversation(row);
}

/** The task a training row groups under: its scenario_id, else its prompt (the carried keys task_key can see). */
export function entryTaskKey(row: Obj): string {
  const sid = row.scenario_id;
  if (pyTruthy(sid)) return pyStr(sid);
  return pyTruthy(row.prompt) ? pyStr(row.prompt) : '';
}

/** The row's samples, each stamped: one, or with unroll one per assistant turn (a row with none stays one sample). */
export function trainingEntries(source: Obj, options: TrainingRowOptions): TrainingEntry[] {
  const row = bridged(source);
  const stats: CutStats = { truncated: 0, charsCut: 0 };
  const messages = convertMessages(sourceMessages(row), {
    system: options.systemPrompt,
    stripThink: options.stripThink,
    maxToolOutputChars: options.maxToolOutputChars,
    stats,
  });
  const entry: Obj = { messages };
  if (stats.truncated) {
    entry.tool_output_truncated = stats.truncated;
    entry.tool_output_chars_cut = stats.charsCut;
  }
  entry.loss_mask = lossMask(messages, options.maskMode);
  if (options.tools.length) entry.tools = options.tools.slice();
  for (const key of CARRY_KEYS) {
    const value = row[key];
    // A carried value keeps no blocked key at any depth (a lineage holding a reference): the app's one rule for what
    // leaves it, and the SDK's own intent ("the export scrubs the key"); its training_rows copies carried values as they are.
    if (value !== null && value !== undefined) entry[key] = typeof value === 'object' ? scrubValue(value) : value;
  }
  const samples = options.unroll ? unrolled(entry as TrainingEntry, row) : [entry as TrainingEntry];
  for (const sample of samples) if (!('schema_version' in sample)) sample.schema_version = '1';
  return samples;
}

function unrolled(entry: TrainingEntry, row: Obj): TrainingEntry[] {
  const turns: number[] = [];
  entry.messages.forEach((m, i) => {
    if (m.role === 'assistant') turns.push(i);
  });
  if (turns.length === 0) return [entry];
  const from: Obj = { prompt_sha1: sha1Hex(pyTruthy(row.prompt) ? pyStr(row.prompt) : '').slice(0, 12), rollout_index: row.rollout_index ?? null };
  if (pyTruthy(row.scenario_id)) from.scenario_id = row.scenario_id;
  return turns.map((at, k) => {
    const sample: Obj = { ...entry };
    sample.messages = entry.messages.slice(0, at + 1);
    sample.loss_mask = Array.from({ length: at + 1 }, (_, j) => (j === at ? 1 : 0));
    sample.unroll = { turn: k + 1, turns: turns.length };
    const lineage: Obj = isObj(entry.lineage) ? { ...entry.lineage } : {};
    lineage.unrolled_from = { ...from };
    sample.lineage = lineage;
    return sample as TrainingEntry;
  });
}
