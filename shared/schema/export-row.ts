// What leaves the app in an exported row (sdk-semantics §1.4, §1.9): the teacher's block never does.
// Keys named privileged, principle, hidden_state, reference, rubric or vector are removed at any depth,
// tool arguments and results included, exactly as the SDK's export_row does.
export const BLOCKED_KEYS = ['privileged', 'principle', 'hidden_state', 'reference', 'rubric', 'vector'] as const;

const blocked = new Set<string>(BLOCKED_KEYS);
const quotedKeys = BLOCKED_KEYS.map((key) => `"${key}"`);

function scrub(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrub);
  if (value === null || typeof value !== 'object' || value instanceof Number) return value; // a boxed whole float (py-json.ts) is a number
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (!blocked.has(key)) out[key] = scrub(inner);
  }
  return out;
}

export function scrubPrivileged<T extends Record<string, unknown>>(row: T): T {
  return scrub(row) as T;
}

/** A value with every blocked key removed at any depth (a copy only where one was found). */
export function scrubValue(value: unknown): unknown {
  return hasBlockedKey(value) ? scrub(value) : value;
}

function hasBlockedKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasBlockedKey);
  if (value === null || typeof value !== 'object' || value instanceof Number) return false;
  for (const key in value as Record<string, unknown>) if (blocked.has(key) || hasBlockedKey((value as Record<string, unknown>)[key])) return true;
  return false;
}

/** A stored row's JSON as it should be exported: unchanged (byte for byte) unless a blocked key is in it. */
export function exportRowJson(json: string): string {
  if (!quotedKeys.some((key) => json.includes(key))) return json;
  return JSON.stringify(scrubPrivileged(JSON.parse(json) as Record<string, unknown>));
}
