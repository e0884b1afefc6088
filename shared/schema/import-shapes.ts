// Legacy and foreign row shapes -> row v1 (sdk-semantics §1.8 detect_shape, §8.1 load_traces).
import { convertMessagesToSteps } from './messages-to-steps';

export type RowShape = 'v1' | 'hf_flat' | 'training' | 'engine' | 'platform_pull' | 'otel' | 'loose';

type Obj = Record<string, unknown>;

const STEP_KEYS = ['steps', 'tool_trace', 'trace'];
const ARG_KEYS = ['arguments', 'input', 'args', 'parameters'];
const RESULT_KEYS = ['result', 'output', 'response'];
const PROMPT_KEYS = ['prompt', 'question', 'input', 'task', 'ask'];
const FINAL_KEYS = ['final_text', 'final', 'output', 'response', 'answer'];
const HF_FLAT_COLUMNS: Array<[string, string]> = [
  ['steps_json', 'steps'],
  ['messages_json', 'messages'],
  ['metadata_json', 'metadata'],
];

/** Python truthiness, which the SDK's `or` chains rely on. */
export function truthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value as Obj).length > 0;
  return !Number.isNaN(value);
}

/** The Hugging Face columns' names, read on every row: a plain loop, not a closure and a destructuring per row. */
const HF_FLAT_NAMES = HF_FLAT_COLUMNS.map(([column]) => column);

function hasHfFlatColumn(row: Obj): boolean {
  for (let i = 0; i < HF_FLAT_NAMES.length; i++) if (typeof row[HF_FLAT_NAMES[i]] === 'string') return true;
  return false;
}

export function detectShape(row: Obj): RowShape {
  if ('schema_version' in row) return 'v1';
  if (hasHfFlatColumn(row)) return 'hf_flat';
  if (Array.isArray(row.messages) && row.messages.length > 0 && !truthy(row.steps) && !('final_text' in row)) {
    return 'training';
  }
  if (row.scenario_id !== undefined && row.scenario_id !== null) return 'engine';
  if (Array.isArray(row.tool_trace) && !truthy(row.steps)) return 'platform_pull';
  if (row.conversation_id !== undefined && row.conversation_id !== null) return 'otel';
  return 'loose';
}

function renameToolStep(step: unknown): unknown {
  if (step === null || typeof step !== 'object' || Array.isArray(step)) return step;
  const source = step as Obj;
  if (!('tool' in source)) return step;
  const out: Obj = {};
  const argKey = ARG_KEYS.find((key) => key in source);
  const resultKey = RESULT_KEYS.find((key) => key in source);
  for (const [key, value] of Object.entries(source)) {
    if (key === argKey) out.arguments = value;
    else if (key === resultKey) out.result = value;
    else if (!(ARG_KEYS.includes(key) && argKey) && !(RESULT_KEYS.includes(key) && resultKey)) out[key] = value;
  }
  return out;
}

function readLabel(value: unknown): 0 | 1 | undefined {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number' && (value === 0 || value === 1)) return value;
  return undefined;
}

/** load_traces for one row: canonical steps, prompt, final_text and a 0/1 reward (or none). */
export function loadTrace(source: Obj): Obj | null {
  const row: Obj = { ...source };
  let steps: unknown[] | undefined;
  for (const key of STEP_KEYS) {
    const candidate = row[key];
    if (Array.isArray(candidate) && candidate.length > 0) {
      steps = candidate;
      break;
    }
  }
  if (!steps && Array.isArray(row.messages)) steps = convertMessagesToSteps(row.messages);
  steps = (steps ?? []).map(renameToolStep);
  for (const key of STEP_KEYS) if (key !== 'steps') delete row[key];
  row.steps = steps;

  const promptKey = PROMPT_KEYS.find((key) => truthy(row[key]));
  let prompt: string | undefined = promptKey ? stringOf(row[promptKey]) : undefined;
  if (prompt === undefined) {
    const firstUser = steps.find((step) => isObj(step) && typeof step.user === 'string') as Obj | undefined;
    if (firstUser) prompt = firstUser.user as string;
  }
  const finalKey = FINAL_KEYS.find((key) => truthy(row[key]));
  let finalText: string | undefined = finalKey ? stringOf(row[finalKey]) : undefined;
  if (finalText === undefined) {
    const lastText = [...steps].reverse().find((step) => isObj(step) && typeof step.text === 'string' && !('tool' in step));
    if (lastText) finalText = (lastText as Obj).text as string;
  }

  const label = readLabel(row.reward);
  if (label === undefined) delete row.reward;
  else row.reward = label;

  if (prompt === undefined && steps.length === 0) return null;
  row.prompt = prompt ?? '';
  row.final_text = finalText ?? '';
  return row;
}

function isEmpty(value: Obj): boolean {
  for (const _key in value) return false;
  return true;
}

function isObj(value: unknown): value is Obj {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Parse the Hugging Face JSON-string columns; an unparseable one is kept as it was (§8.2). */
function expandHfFlat(row: Obj): Obj {
  const out: Obj = { ...row };
  for (const [column, target] of HF_FLAT_COLUMNS) {
    if (typeof out[column] !== 'string') continue;
    try {
      out[target] = JSON.parse(out[column] as string);
      delete out[column];
    } catch {
      // kept as it was, like the SDK
    }
  }
  return out;
}

export type Normalized = { ok: true; row: Obj; shape: RowShape } | { ok: false; message: string };

/**
 * Any accepted spelling -> a row v1 object. A v1 row is returned as it is (validation happens after);
 * engine and otel rows are kept and stamped; the rest go through load_traces.
 * `owned`: the caller owns `input` (it was just parsed), so an engine or otel row is stamped in place instead of
 * copied: the same keys in the same order, without a copy of every row (on 100k rows the copies cost some 200 ms
 * and leave objects V8 reads more slowly afterwards).
 */
export function normalizeRow(input: unknown, owned = false): Normalized {
  if (!isObj(input)) return { ok: false, message: 'not a JSON object (not_a_dict)' };
  const shape = detectShape(input);
  if (shape !== 'v1' && isEmpty(input)) return { ok: false, message: 'empty object (empty_row)' };
  if (shape === 'v1') return { ok: true, row: input, shape };
  if (shape === 'engine' || shape === 'otel') {
    const row: Obj = owned ? input : { ...input };
    if (typeof row.prompt !== 'string') {
      const traced = loadTrace(row);
      if (!traced) return { ok: false, message: `${shape} row has no prompt and no steps` };
      return { ok: true, row: { ...traced, schema_version: '1' }, shape };
    }
    if (!Array.isArray(row.steps)) row.steps = [];
    if (typeof row.final_text !== 'string') row.final_text = '';
    row.schema_version = '1';
    return { ok: true, row, shape };
  }
  const traced = loadTrace(shape === 'hf_flat' ? expandHfFlat(input) : input);
  if (!traced) return { ok: false, message: 'row has no prompt (prompt/question/input/task/ask) and no steps' };
  traced.schema_version = '1';
  return { ok: true, row: traced, shape };
}
