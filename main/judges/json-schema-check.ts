// A small JSON Schema check for json_schema rules: type, required, properties, additionalProperties, items, enum, const, bounds, pattern.
import type { JsonType, MiniJsonSchema } from '../../shared/schema/judge-rules';
import { ruleRegexMatches } from './rule-regex';

function typeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value as JsonType;
}

function matchesType(value: unknown, type: JsonType): boolean {
  const actual = typeOf(value);
  return actual === type || (type === 'number' && actual === 'integer');
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => Object.hasOwn(b, key) && deepEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

/** The first way `value` breaks `schema`, as "$.path: problem", or null when it conforms. */
export function checkJsonSchema(value: unknown, schema: MiniJsonSchema, at = '$'): string | null {
  if (schema.type !== undefined) {
    const types = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (!types.some((type) => matchesType(value, type))) return `${at}: expected ${types.join(' or ')}, got ${typeOf(value)}`;
  }
  if (schema.enum && !schema.enum.some((option) => deepEqual(option, value))) return `${at}: must be one of ${JSON.stringify(schema.enum)}`;
  if (schema.const !== undefined && !deepEqual(schema.const, value)) return `${at}: must be ${JSON.stringify(schema.const)}`;
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return `${at}: must be at least ${schema.minimum}`;
    if (schema.maximum !== undefined && value > schema.maximum) return `${at}: must be at most ${schema.maximum}`;
  }
  if (typeof value === 'string') {
    if (schema.minLength !== undefined && value.length < schema.minLength) return `${at}: must have at least ${schema.minLength} characters`;
    if (schema.maxLength !== undefined && value.length > schema.maxLength) return `${at}: must have at most ${schema.maxLength} characters`;
    if (schema.pattern !== undefined && !ruleRegexMatches(schema.pattern, undefined, value)) return `${at}: must match /${schema.pattern}/`;
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return `${at}: must have at least ${schema.minItems} items`;
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return `${at}: must have at most ${schema.maxItems} items`;
    if (schema.items) {
      for (let i = 0; i < value.length; i++) {
        const problem = checkJsonSchema(value[i], schema.items, `${at}[${i}]`);
        if (problem) return problem;
      }
    }
  }
  if (typeOf(value) === 'object') {
    const object = value as Record<string, unknown>;
    for (const key of schema.required ?? []) if (!Object.hasOwn(object, key)) return `${at}: missing required key "${key}"`;
    for (const [key, child] of Object.entries(object)) {
      const sub = schema.properties?.[key];
      if (sub) {
        const problem = checkJsonSchema(child, sub, `${at}.${key}`);
        if (problem) return problem;
      } else if (schema.additionalProperties === false) return `${at}: unexpected key "${key}"`;
    }
  }
  return null;
}
