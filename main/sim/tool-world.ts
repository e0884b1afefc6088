// Answers a tool call from the task's deterministic world: faults first, then world entries in order.
import type { FaultMode, Task, WorldEntry } from '../../shared/schema/task';
import { compileSchema, type SchemaCheck } from '../json-schema/validator';

type Obj = Record<string, unknown>;

/** The result a faulted call gets, by mode (statuses from FAULT_STATUSES, sdk-semantics §10). */
export function faultResult(tool: string, mode: FaultMode): unknown {
  if (mode === 'timeout') return { status: 'timeout', reason: `${tool} did not answer in time` };
  if (mode === 'error') return { status: 'error', reason: `${tool} failed: internal error` };
  return {};
}

function same(expected: unknown, actual: unknown): boolean {
  if (expected === actual) return true;
  if (expected === null || actual === null || expected === undefined || actual === undefined) return false;
  const primitive = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
  if (primitive(expected) && primitive(actual)) {
    return String(expected).trim().toLowerCase() === String(actual).trim().toLowerCase();
  }
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && expected.length === actual.length && expected.every((item, i) => same(item, actual[i]));
  }
  if (typeof expected === 'object' && typeof actual === 'object' && !Array.isArray(actual)) {
    const e = expected as Obj;
    const a = actual as Obj;
    return Object.keys(e).length === Object.keys(a).length && Object.keys(e).every((key) => same(e[key], a[key]));
  }
  return false;
}

/** True when every `when` argument equals the call's (strings trimmed and case-insensitive; numbers match their text). */
export function entryMatches(entry: WorldEntry, args: Obj): boolean {
  if (!entry.when) return true;
  return Object.entries(entry.when).every(([key, value]) => same(value, args[key]));
}

export interface ToolOutcome {
  result: unknown;
  /** The fault that answered the call, when one did. */
  fault: FaultMode | null;
}

export interface ToolWorld {
  call(tool: string, args: Obj): ToolOutcome;
}

export function createToolWorld(task: Pick<Task, 'tools' | 'world' | 'faults'>): ToolWorld {
  const declared = new Set(task.tools.map((tool) => tool.function.name));
  const faults = new Map(task.faults.map((fault) => [fault.tool, fault.mode] as const));
  // A task file is checked at load (task-file.ts); a task stored before that check answers with the reason.
  const argumentChecks = new Map<string, SchemaCheck>();
  for (const tool of task.tools) {
    if (!tool.function.parameters) continue;
    let check: SchemaCheck;
    try {
      check = compileSchema(tool.function.parameters);
    } catch (error) {
      const reason = `the parameters of ${tool.function.name} are not a valid JSON Schema: ${(error as Error).message}`;
      check = () => reason;
    }
    argumentChecks.set(tool.function.name, check);
  }
  return {
    call(tool, args) {
      if (declared.size > 0 && !declared.has(tool) && !task.world[tool]) {
        return { result: { status: 'error', reason: `unknown tool "${tool}": this task offers ${[...declared].join(', ')}` }, fault: null };
      }
      const mode = faults.get(tool);
      if (mode) return { result: faultResult(tool, mode), fault: mode };
      // Arguments that break the tool's `parameters` get the error a real tool server answers with.
      const problem = argumentChecks.get(tool)?.(args) ?? null;
      if (problem !== null) return { result: { status: 'error', reason: `invalid arguments for ${tool}: ${problem}` }, fault: null };
      const entries = task.world[tool] ?? [];
      const hit = entries.find((entry) => entryMatches(entry, args));
      if (hit) return { result: hit.result === undefined ? null : (JSON.parse(JSON.stringify(hit.result)) as unknown), fault: null };
      const shown = JSON.stringify(args);
      return {
        result: { status: 'not_found', reason: `no ${tool} result for ${shown.length > 200 ? shown.slice(0, 200) + '...' : shown}` },
        fault: null,
      };
    },
  };
}

/** The row's `faults` plan in the SDK's shape ({tool: {mode}}), or undefined when the task has none. */
export function faultPlan(task: Pick<Task, 'faults'>): Record<string, { mode: FaultMode }> | undefined {
  if (task.faults.length === 0) return undefined;
  return Object.fromEntries(task.faults.map((fault) => [fault.tool, { mode: fault.mode }]));
}
