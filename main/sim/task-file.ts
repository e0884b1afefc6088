// Reads a task set: a task JSONL, or a rows file from an earlier run (pinned tasks, sdk-semantics §3.6).
// A bad file is refused as a whole, with every bad line's number and reason, before anything runs.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { ApiError, describeZodError } from '../../shared/api/define';
import { taskSchema, type Task } from '../../shared/schema/task';

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
      `the task file ${where} has ${errors.length} bad line${errors.length === 1 ? '' : 's'}; nothing was run. Fix them and try again:\n${[...shown, ...more].join('\n')}`,
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
  if (privileged.reference !== undefined) task.reference = privileged.reference;
  if (privileged.rubric !== undefined) task.rubric = privileged.rubric;
  if (typeof row.category === 'string') task.category = row.category;
  return task;
}

/** Parses task JSONL text; `where` names it in errors (a path, or "(uploaded text)"). */
export function parseTaskSet(text: string, where: string): TaskSet {
  const errors: TaskLineError[] = [];
  const tasks: Task[] = [];
  const seenScenario = new Map<string, number>();
  const seenPrompt = new Map<string, number>();
  const perPrompt = new Map<string, number>();
  let kind: 'tasks' | 'rows' | null = null;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const raw = lines[i].trim();
    if (raw === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      errors.push({ line: lineNo, message: `not valid JSON (${(error as Error).message})` });
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
    const parsed = taskSchema.safeParse(candidate);
    if (!parsed.success) {
      errors.push({ line: lineNo, message: describeZodError(parsed.error) });
      continue;
    }
    const task = parsed.data;
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
        message: `scenario_id "${task.scenario_id}" is already used on line ${first} for another ${kind === 'rows' ? 'prompt' : 'task'}; give each task its own scenario_id`,
      });
      continue;
    }
    seenScenario.set(task.scenario_id, lineNo);
    tasks.push(task);
  }
  if (errors.length > 0) throw new TaskFileError(where, errors);
  if (tasks.length === 0) throw new ApiError('bad_input', `the task file ${where} holds no tasks: write one JSON object a line with scenario_id and prompt`, where);
  return { tasks, kind: kind ?? 'tasks', sha256: sha256(text), rowsPerPrompt: Math.max(0, ...perPrompt.values()) };
}

export function readTaskFile(file: string): TaskSet {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ApiError('not_found', `cannot read the task file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, file);
  }
  return parseTaskSet(text, file);
}
