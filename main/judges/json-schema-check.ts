// The rules judge's `json_schema` rule and `tool_called` argument match: the schema check is the one JSON Schema
// validator (main/json-schema/validator.ts, ajv); deepEqual compares JSON values.
import type { MiniJsonSchema } from '../../shared/schema/judge-rules';
import { checkJsonSchema as checkWithAjv } from '../json-schema/validator';

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => Object.hasOwn(b, key) && deepEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/** The first way `value` breaks `schema`, as "$.path: problem", or null when it conforms. */
export function checkJsonSchema(value: unknown, schema: MiniJsonSchema): string | null {
  return checkWithAjv(value, schema);
}
