// Answers a tool call from the task's deterministic world: faults first, then world entries in order.
// An entry answers a call when every `when` value equals the call's argument (an entry without `when` answers any
// call: the tool's fallback, written last). It never answers for another entity: when its result names a
// reference-like argument of the call (order_id, sku, path, ...: the reference parameters of sdk-semantics §3.3)
// with a different value, it is skipped. A call no entry answers gets the not_found error, so an invented order
// id never receives some other order's status.
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

/** Reference-like parameter names (sdk-semantics §3.3, world_state): id, *_id, path, file, name, key, ref, number, repo, asin, sku. */
const REFERENCE_ARGUMENT = /^(?:id|[A-Za-z0-9_]*_id|[a-z][A-Za-z0-9]*Id|path|file|name|key|ref|number|repo|asin|sku)$/;

/** True when the result is about another entity than the call asks for (it names the call's reference with another value). */
export function answersAnotherEntity(result: unknown, args: Obj): boolean {
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return false;
  const named = result as Obj;
  return Object.entries(args).some(([key, value]) => REFERENCE_ARGUMENT.test(key) && Object.hasOwn(named, key) && !same(named[key], value));
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
      const own = Object.hasOwn(task.world, tool);
      if (declared.size > 0 && !declared.has(tool) && !own) {
        return { result: { status: 'error', reason: `unknown tool "${tool}": this task offers ${[...declared].join(', ')}` }, fault: null };
      }
      const mode = faults.get(tool);
      if (mode) return { result: faultResult(tool, mode), fault: mode };
      // Arguments that break the tool's `parameters` get the error a real tool server answers with.
      const problem = argumentChecks.get(tool)?.(args) ?? null;
      if (problem !== null) return { result: { status: 'error', reason: `invalid arguments for ${tool}: ${problem}` }, fault: null };
      const entries = own ? task.world[tool] : [];
      const hit = entries.find((entry) => entryMatches(entry, args) && !answersAnotherEntity(entry.result, args));
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
