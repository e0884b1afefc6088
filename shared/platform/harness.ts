// A harness: instructions, tools and model, versioned by its fingerprint (platform-api.md §4.2 Harness; Harness.wire()).
import { pyStr, isObject } from '../stats/keys';
import { sha256Hex } from '../stats/hash';
import { canonicalJson } from './canonical-json';

/** A harness as given: tools may be names or tool objects (reduced to their names). */
export interface HarnessInput {
  label?: string | null;
  instructions?: string | null;
  tools?: unknown[] | null;
  model?: string | null;
  /** Part of the fingerprint when the runnable harness gives one; never sent. */
  disclosure?: unknown;
}

export interface Harness {
  label: string | null;
  instructions: string | null;
  tools: string[];
  model: string | null;
  disclosure?: unknown;
  /** 12 hex digits of sha256 over the canonical {instructions, model, tools (sorted)}. */
  fingerprint: string;
  /** The label, else "h-" + fingerprint: the run version on the platform. */
  version: string;
}

/** A tool's name: a string, `function.name` of an OpenAI-style tool, `name`, else the Python type name. */
export function toolName(tool: unknown): string {
  if (typeof tool === 'string') return tool;
  if (typeof tool === 'function' && tool.name) return tool.name;
  if (isObject(tool)) {
    const inner = tool.function;
    if (isObject(inner) && inner.name) return pyStr(inner.name);
    if (tool.name) return pyStr(tool.name);
    return 'dict';
  }
  return tool === null || tool === undefined ? 'NoneType' : typeof tool;
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function harnessFingerprint(h: { instructions: string | null; model: string | null; tools: readonly string[]; disclosure?: unknown }): string {
  const blob: Record<string, unknown> = { instructions: h.instructions, model: h.model, tools: [...h.tools].sort(byCodePoint) };
  if (h.disclosure !== undefined && h.disclosure !== null) blob.disclosure = h.disclosure;
  return sha256Hex(canonicalJson(blob)).slice(0, 12);
}

export function makeHarness(input: HarnessInput): Harness {
  const base = {
    label: input.label || null,
    instructions: input.instructions ?? null,
    tools: (input.tools ?? []).map(toolName),
    model: input.model ?? null,
    ...(input.disclosure !== undefined && input.disclosure !== null ? { disclosure: input.disclosure } : {}),
  };
  const fingerprint = harnessFingerprint(base);
  return { ...base, fingerprint, version: base.label || `h-${fingerprint}` };
}

/** The harness as posted: nulls left out, `label` always the version, `hash` the fingerprint; no disclosure. */
export function harnessWire(h: Harness): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (h.label !== null) out.label = h.label;
  if (h.instructions !== null) out.instructions = h.instructions;
  out.tools = [...h.tools];
  if (h.model !== null) out.model = h.model;
  out.label = h.version;
  out.hash = h.fingerprint;
  return out;
}

/** The prompt name a `prompt@model` label carries; a label with no "@" is the prompt itself. */
export const promptOf = (h: Harness): string => h.version.split('@', 1)[0];
