// A simulation task (one JSONL line of a task set): the ask, its tools, a deterministic tool world, faults.
import { z } from './zod';

export const toolSchema = z.object({
  type: z.literal('function', { message: 'a tool must be {"type": "function", "function": {...}}' }),
  function: z.looseObject({
    name: z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'a tool name is 1 to 64 letters, digits, _ . or -'),
    description: z.string().optional(),
    parameters: z.record(z.string(), z.unknown()).optional(),
  }),
});

/** One world entry: used for a call whose arguments equal every `when` value; no `when` matches any call. */
export const worldEntry = z
  .looseObject({ when: z.record(z.string(), z.unknown()).optional(), result: z.unknown().optional() })
  .refine((entry) => Object.prototype.hasOwnProperty.call(entry, 'result'), { message: 'a world entry needs a "result"' });

export const faultMode = z.enum(['error', 'timeout', 'empty']);
export type FaultMode = z.infer<typeof faultMode>;

export const taskFault = z.object({ tool: z.string().min(1), mode: faultMode });

const taskFields = z.looseObject({
  scenario_id: z.string({ error: (issue) => (issue.input === undefined ? 'scenario_id is required' : 'scenario_id must be a string') }).min(1, 'scenario_id is empty'),
  prompt: z.string({ error: (issue) => (issue.input === undefined ? 'prompt is required' : 'prompt must be a string') }).refine((p) => p.trim() !== '', 'prompt is empty'),
  system_prompt: z.string().optional(),
  tools: z.array(toolSchema).default([]),
  world: z.record(z.string(), z.array(worldEntry)).default({}),
  faults: z.array(taskFault).default([]),
  reference: z.unknown().optional(),
  rubric: z.unknown().optional(),
  category: z.string().optional(),
});

type TaskFields = z.output<typeof taskFields>;

/** The keys a task declares; any other key is the author's own (`expected`, `metadata`, ...) and rides to the judge. */
export const TASK_KEYS: ReadonlySet<string> = new Set(Object.keys(taskFields.shape));

/** The author's own keys of a task: everything it carries beyond TASK_KEYS. */
export function extraTaskKeys(task: Record<string, unknown>): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(task)) if (!TASK_KEYS.has(key) && value !== undefined) extra[key] = value;
  return extra;
}
type Issues = { addIssue: (issue: { code: 'custom'; path: PropertyKey[]; message: string }) => void };

function uniqueToolNames(task: TaskFields, ctx: Issues): void {
  const names = new Set(task.tools.map((tool) => tool.function.name));
  if (names.size !== task.tools.length) ctx.addIssue({ code: 'custom', path: ['tools'], message: 'two tools share a name' });
}

/** `world` and `faults` may only name declared tools: with no `tools`, a world or a fault has nothing to answer for. */
function worldAndFaultsNameDeclaredTools(task: TaskFields, ctx: Issues): void {
  const names = new Set(task.tools.map((tool) => tool.function.name));
  const declared = names.size === 0 ? 'the task declares no tools' : `tools declares ${[...names].map((n) => JSON.stringify(n)).join(', ')}`;
  for (const name of Object.keys(task.world)) {
    if (!names.has(name)) ctx.addIssue({ code: 'custom', path: ['world', name], message: `world names tool ${JSON.stringify(name)}, which is not in tools (${declared}); declare it in tools or remove it` });
  }
  task.faults.forEach((fault, i) => {
    if (!names.has(fault.tool)) ctx.addIssue({ code: 'custom', path: ['faults', i, 'tool'], message: `fault on tool ${JSON.stringify(fault.tool)}, which is not in tools (${declared}); declare it in tools or remove the fault` });
  });
}

/** A task line of a task file. */
export const taskSchema = taskFields.superRefine((task, ctx) => {
  uniqueToolNames(task, ctx);
  worldAndFaultsNameDeclaredTools(task, ctx);
});

/**
 * A row of an earlier run replayed as a pinned task (sdk-semantics §3.6). The SDK's rows carry their fault plan
 * but not their tools, so faults on undeclared tools are kept (they fire on nothing the agent is offered).
 */
export const replayedRowTaskSchema = taskFields.superRefine((task, ctx) => {
  uniqueToolNames(task, ctx);
  if (task.tools.length > 0) worldAndFaultsNameDeclaredTools(task, ctx);
});

export type Task = TaskFields;
export type TaskTool = z.output<typeof toolSchema>;
export type WorldEntry = z.output<typeof worldEntry>;
export type TaskFault = z.output<typeof taskFault>;
