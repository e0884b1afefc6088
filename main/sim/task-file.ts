// Reads a task set: a task JSONL, or a rows file from an earlier run (pinned tasks, sdk-semantics §3.6).
// A bad file is refused as a whole, with every bad line's number and reason, before anything runs.
import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { ApiError, describeZodError } from '../../shared/api/define';
import { TASK_KEYS, replayedRowTaskSchema, taskSchema, type Task } from '../../shared/schema/task';
import { escapeControls } from '../../shared/text/escape-controls';
import { nestsTooDeep, tooDeepMessage } from '../../shared/text/json-depth';
import { compileSchema } from '../json-schema/validator';

export interface TaskSet {
  tasks: Task[];
  kind: 'tasks' | 'rows';
  sha256: string;
  /** For a rows file: the largest number of rollouts any one prompt had (the default k, §3.6). */
  rowsPerPrompt: number;
}

export interface TaskLineError {
  line: number;
  message: string;
}

const MAX_ERRORS_SHOWN = 20;

export class TaskFileError extends ApiError {
  readonly errors: TaskLineError[];
  constructor(where: string, errors: TaskLineError[]) {
    const shown = errors.slice(0, MAX_ERRORS_SHOWN).map((e) => `  line ${e.line}: ${e.message}`);
    const more = errors.length > MAX_ERRORS_SHOWN ? [`  ... and ${errors.length - MAX_ERRORS_SHOWN} more`] : [];
    super(
      'bad_input',
      `the task file ${escapeControls(where)} has ${errors.length} bad line${errors.length === 1 ? '' : 's'}; nothing was run. Fix them and try again:\n${[...shown, ...more].join('\n')}`,
      where,
      errors,
    );
    this.errors = errors;
  }
}

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

function isRowLine(value: Obj): boolean {
  return 'steps' in value || 'final_text' in value || 'schema_version' in value;
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A row of an earlier run as a pinned task: same scenario_id and prompt, its faults, tools and privileged context. */
function rowAsTask(row: Obj): unknown {
  const prompt = typeof row.prompt === 'string' ? row.prompt : undefined;
  const scenario = row.scenario_id ?? row.task_id ?? (prompt ? 'probe_' + sha256(prompt).slice(0, 6) : undefined);
  const privileged = isObj(row.privileged) ? row.privileged : {};
  const faults = isObj(row.faults)
    ? Object.entries(row.faults).filter(([, plan]) => isObj(plan)).map(([tool, plan]) => ({ tool, mode: (plan as Obj).mode ?? 'timeout' }))
    : [];
  const lineage = isObj(row.lineage) ? row.lineage : {};
  const task: Obj = { scenario_id: scenario === undefined ? undefined : String(scenario), prompt, faults };
  if (Array.isArray(row.tools)) task.tools = row.tools;
  if (isObj(row.world)) task.world = row.world;
  const head = lineage.system_prompt_head;
  if (typeof row.system_prompt === 'string') task.system_prompt = row.system_prompt;
  else if (typeof head === 'string' && head !== '' && lineage.system_prompt_chars === head.length) task.system_prompt = head;
  // A task's own extra keys rode in the row's privileged block (rollout.ts): they come back as task keys.
  for (const [key, value] of Object.entries(privileged)) if (!TASK_KEYS.has(key) && !(key in task)) task[key] = value;
  if (privileged.reference !== undefined) task.reference = privileged.reference;
  if (privileged.rubric !== undefined) task.rubric = privileged.rubric;
  if (typeof row.category === 'string') task.category = row.category;
  return task;
}

/** The same words as an import's (parse-block.ts), so `run` and `import` refuse such a line alike. */
const NOT_UTF8 = 'not valid UTF-8 text';

/** Every tool's `parameters` must compile as a JSON Schema; the first that does not, named with its tool. */
function parametersProblem(task: Task): string | null {
  for (const tool of task.tools) {
    if (tool.function.parameters === undefined) continue;
    try {
      compileSchema(tool.function.parameters);
    } catch (error) {
      return `tool ${JSON.stringify(tool.function.name)}: parameters is not a valid JSON Schema: ${(error as Error).message}`;
    }
  }
  return null;
}

/** Parses task JSONL text; `where` names it in errors (a path, or "(uploaded text)"). */
export function parseTaskSet(text: string, where: string): TaskSet {
  return parseTaskLines(text.split('\n'), where, sha256(text));
}

/** Lines as text, or null for a line that is not UTF-8. */
function parseTaskLines(lines: Array<string | null>, where: string, digest: string): TaskSet {
  const errors: TaskLineError[] = [];
  const tasks: Task[] = [];
  const seenScenario = new Map<string, number>();
  const seenPrompt = new Map<string, number>();
  const perPrompt = new Map<string, number>();
  let kind: 'tasks' | 'rows' | null = null;
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const line = lines[i];
    if (line === null) {
      errors.push({ line: lineNo, message: NOT_UTF8 });
      continue;
    }
    const raw = line.trim();
    if (raw === '') continue;
    if (nestsTooDeep(raw)) {
      errors.push({ line: lineNo, message: tooDeepMessage() });
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      errors.push({ line: lineNo, message: `not valid JSON (${escapeControls((error as Error).message)})` });
      continue;
    }
    if (!isObj(value)) {
      errors.push({ line: lineNo, message: 'a task is a JSON object with scenario_id and prompt' });
      continue;
    }
    const lineKind = isRowLine(value) ? 'rows' : 'tasks';
    kind ??= lineKind;
    if (lineKind !== kind) {
      errors.push({ line: lineNo, message: `this line is a ${lineKind === 'rows' ? 'row of a run' : 'task'} but the file began with ${kind === 'rows' ? 'rows' : 'tasks'}; keep one kind per file` });
      continue;
    }
    const candidate = kind === 'rows' ? rowAsTask(value) : value;
    const parsed = (kind === 'rows' ? replayedRowTaskSchema : taskSchema).safeParse(candidate);
    if (!parsed.success) {
      errors.push({ line: lineNo, message: escapeControls(describeZodError(parsed.error)) });
      continue;
    }
    const task = parsed.data;
    const badParameters = parametersProblem(task);
    if (badParameters !== null) {
      errors.push({ line: lineNo, message: escapeControls(badParameters) });
      continue;
    }
    if (kind === 'rows') {
      const key = task.prompt.trim();
      perPrompt.set(key, (perPrompt.get(key) ?? 0) + 1);
      if (seenPrompt.has(key)) continue;
      seenPrompt.set(key, lineNo);
    }
    const first = seenScenario.get(task.scenario_id);
    if (first !== undefined) {
      errors.push({
        line: lineNo,
        message: escapeControls(`scenario_id ${JSON.stringify(task.scenario_id)} is already used on line ${first} for another ${kind === 'rows' ? 'prompt' : 'task'}; give each task its own scenario_id`),
      });
      continue;
    }
    seenScenario.set(task.scenario_id, lineNo);
    tasks.push(task);
  }
  if (errors.length > 0) throw new TaskFileError(where, errors);
  if (tasks.length === 0) throw new ApiError('bad_input', `the task file ${escapeControls(where)} holds no tasks: write one JSON object a line with scenario_id and prompt`, where);
  return { tasks, kind: kind ?? 'tasks', sha256: digest, rowsPerPrompt: Math.max(0, ...perPrompt.values()) };
}

/** A file's lines, each decoded only when it is UTF-8 (a lone bad line is reported, not turned into U+FFFD). */
function decodeLines(bytes: Buffer): Array<string | null> {
  if (isUtf8(bytes)) return bytes.toString('utf8').split('\n');
  const lines: Array<string | null> = [];
  let start = 0;
  while (start <= bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    if (end === -1) end = bytes.length;
    const line = bytes.subarray(start, end);
    lines.push(isUtf8(line) ? line.toString('utf8') : null);
    start = end + 1;
  }
  return lines;
}

export function readTaskFile(file: string): TaskSet {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    throw new ApiError('not_found', `cannot read the task file ${escapeControls(file)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, file);
  }
  return parseTaskLines(decodeLines(bytes), file, createHash('sha256').update(bytes).digest('hex'));
}
