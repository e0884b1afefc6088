// The `--judge FILE.json` rules format (built-in rules judge): contains, regex, tool_called, json_schema, all/any/not.
// Regular expressions are RE2 (re2js): matching takes linear time, so no pattern can hang the engine
// (`^(a+)+$` on forty a's and a "!" answers at once); lookarounds and backreferences are refused at load.
import { RE2JS } from 're2js';
import { z } from './zod';

/** all/any/not nested deeper than this is refused (and any JSON deeper than MAX_JSON_DEPTH). */
export const MAX_RULE_DEPTH = 32;
export const MAX_JSON_DEPTH = 64;

const FLAG_BITS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL, u: 0 };

/** Compiles a rules-file pattern with the linear-time engine; throws with RE2's message on a bad one. */
export function compileRuleRegex(pattern: string, flags = ''): RE2JS {
  let bits = 0;
  for (const flag of flags) {
    if (!(flag in FLAG_BITS)) throw new Error(`unknown regex flag "${flag}" (use i, m, s, u)`);
    bits |= FLAG_BITS[flag];
  }
  return RE2JS.compile(pattern, bits);
}

/** The path of the first place `value` nests deeper than `limit`, or null. Iterative: no stack to overflow. */
export function tooDeepAt(value: unknown, limit = MAX_JSON_DEPTH): string | null {
  const stack: Array<{ value: unknown; depth: number; at: string }> = [{ value, depth: 0, at: '$' }];
  while (stack.length > 0) {
    const { value: item, depth, at } = stack.pop()!;
    if (typeof item !== 'object' || item === null) continue;
    if (depth >= limit) return at;
    if (Array.isArray(item)) item.forEach((child, i) => stack.push({ value: child, depth: depth + 1, at: `${at}[${i}]` }));
    else for (const [key, child] of Object.entries(item)) stack.push({ value: child, depth: depth + 1, at: `${at}.${key}` });
  }
  return null;
}

/** The small JSON Schema subset json_schema rules understand. */
export interface MiniJsonSchema {
  type?: JsonType | JsonType[];
  required?: string[];
  properties?: Record<string, MiniJsonSchema>;
  additionalProperties?: boolean;
  items?: MiniJsonSchema;
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  title?: string;
  description?: string;
  $schema?: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

const jsonTypes = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'] as const;
export type JsonType = (typeof jsonTypes)[number];

function compiles(pattern: string, flags?: string): string | null {
  try {
    compileRuleRegex(pattern, flags);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

const pattern = z.string().superRefine((value, ctx) => {
  const problem = compiles(value);
  if (problem) ctx.addIssue({ code: 'custom', message: `not a valid regular expression: ${problem}` });
});

export const miniJsonSchema: z.ZodType<MiniJsonSchema> = z.lazy(() =>
  z.strictObject({
    type: z.union([z.enum(jsonTypes), z.array(z.enum(jsonTypes)).min(1)]).optional(),
    required: z.array(z.string()).optional(),
    properties: z.record(z.string(), miniJsonSchema).optional(),
    additionalProperties: z.boolean().optional(),
    items: miniJsonSchema.optional(),
    enum: z.array(z.unknown()).min(1).optional(),
    const: z.unknown().optional(),
    minimum: z.number().optional(),
    maximum: z.number().optional(),
    minLength: z.int().min(0).optional(),
    maxLength: z.int().min(0).optional(),
    minItems: z.int().min(0).optional(),
    maxItems: z.int().min(0).optional(),
    pattern: pattern.optional(),
    title: z.string().optional(),
    description: z.string().optional(),
    $schema: z.string().optional(),
  }),
);

/** A dotted path into the row: final_text (the default), prompt, steps.0.result, lineage.model... */
const field = z.string().regex(/^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/, 'field must be a dotted path such as final_text or steps.0.result').optional();

const leafSchemas = {
  contains: z.strictObject({ contains: z.string().min(1, 'contains needs a non-empty string'), field, case_sensitive: z.boolean().optional() }),
  regex: z
    .strictObject({ regex: pattern, flags: z.string().regex(/^[imsu]*$/, 'flags may only use i, m, s and u').optional(), field })
    .superRefine((rule, ctx) => {
      const problem = compiles(rule.regex, rule.flags);
      if (problem) ctx.addIssue({ code: 'custom', path: ['regex'], message: `not a valid regular expression: ${problem}` });
    }),
  tool_called: z.strictObject({
    tool_called: z.string().min(1, 'tool_called needs a tool name'),
    /** Each argument must equal the value given, or match {"regex": "..."}. */
    arguments: z
      .record(z.string(), z.unknown())
      .superRefine((args, ctx) => {
        for (const [key, expected] of Object.entries(args)) {
          const regex = isObject(expected) && Object.keys(expected).length === 1 ? expected.regex : undefined;
          const problem = typeof regex === 'string' ? compiles(regex) : null;
          if (problem) ctx.addIssue({ code: 'custom', path: [key, 'regex'], message: `not a valid regular expression: ${problem}` });
        }
      })
      .optional(),
    min_times: z.int().min(1).optional(),
  }),
  json_schema: z.strictObject({ json_schema: miniJsonSchema, field }),
};

export type ContainsRule = z.infer<typeof leafSchemas.contains>;
export type RegexRule = z.infer<typeof leafSchemas.regex>;
export type ToolCalledRule = z.infer<typeof leafSchemas.tool_called>;
export type JsonSchemaRule = z.infer<typeof leafSchemas.json_schema>;
export type JudgeRule = ContainsRule | RegexRule | ToolCalledRule | JsonSchemaRule | { all: JudgeRule[] } | { any: JudgeRule[] } | { not: JudgeRule };

export interface JudgeRulesFile {
  name?: string;
  /** reward 1 when it holds, 0 when not. */
  rule: JudgeRule;
  /** Extra markers, each 1.0 when its rule holds and 0.0 when not. */
  markers?: Record<string, JudgeRule>;
}

const RULE_KINDS = ['contains', 'regex', 'tool_called', 'json_schema', 'all', 'any', 'not'] as const;

function joinPath(base: string, path: PropertyKey[]): string {
  return path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : `${out}.${String(part)}`), base);
}

function parseRule(value: unknown, at: string, errors: string[], depth = 0): JudgeRule | null {
  if (depth > MAX_RULE_DEPTH) {
    errors.push(`${at}: rules nest too deep (more than ${MAX_RULE_DEPTH} levels of all/any/not)`);
    return null;
  }
  if (!isObject(value)) {
    errors.push(`${at}: a rule must be an object with one of ${RULE_KINDS.join(', ')}`);
    return null;
  }
  const kinds = RULE_KINDS.filter((kind) => kind in value);
  if (kinds.length !== 1) {
    errors.push(kinds.length === 0 ? `${at}: has none of ${RULE_KINDS.join(', ')} (keys: ${Object.keys(value).join(', ') || 'none'})` : `${at}: has ${kinds.join(' and ')}; a rule has exactly one kind (wrap several in "all")`);
    return null;
  }
  const kind = kinds[0];
  if (kind === 'all' || kind === 'any' || kind === 'not') {
    const extra = Object.keys(value).filter((key) => key !== kind);
    if (extra.length) errors.push(`${at}: "${kind}" takes no other keys (found ${extra.join(', ')})`);
    if (kind === 'not') {
      const inner = parseRule(value.not, `${at}.not`, errors, depth + 1);
      return inner && { not: inner };
    }
    const list = value[kind];
    if (!Array.isArray(list) || list.length === 0) {
      errors.push(`${at}.${kind}: must be a non-empty list of rules`);
      return null;
    }
    const rules = list.map((rule, index) => parseRule(rule, `${at}.${kind}[${index}]`, errors, depth + 1));
    return rules.every((rule) => rule !== null) ? ({ [kind]: rules } as JudgeRule) : null;
  }
  const parsed = leafSchemas[kind].safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) errors.push(`${joinPath(at, issue.path)}: ${issue.message}`);
    return null;
  }
  return parsed.data;
}

/** Parses a rules file's JSON. A bare rule at the top is taken as {"rule": ...}. Errors name the path inside the file. */
export function parseJudgeRules(json: unknown): { ok: true; rules: JudgeRulesFile } | { ok: false; errors: string[] } {
  const errors: string[] = [];
  const deep = tooDeepAt(json);
  if (deep) return { ok: false, errors: [`${deep.replace(/^\$\.?/, '') || '(top)'}: nesting too deep (more than ${MAX_JSON_DEPTH} levels)`] };
  if (!isObject(json)) return { ok: false, errors: ['the file must hold a JSON object: {"rule": {...}} or a rule such as {"contains": "refund"}'] };
  const wrapped = 'rule' in json ? json : { rule: json };
  const extra = Object.keys(wrapped).filter((key) => !['name', 'rule', 'markers'].includes(key));
  if (extra.length) errors.push(`unknown top-level key${extra.length > 1 ? 's' : ''} ${extra.join(', ')} (allowed: name, rule, markers)`);
  if (wrapped.name !== undefined && (typeof wrapped.name !== 'string' || !wrapped.name)) errors.push('name: must be a non-empty string');
  const rule = parseRule(wrapped.rule, 'rule', errors);
  const markers: Record<string, JudgeRule> = {};
  if (wrapped.markers !== undefined) {
    if (!isObject(wrapped.markers)) errors.push('markers: must be an object {marker_name: rule}');
    else for (const [name, value] of Object.entries(wrapped.markers)) {
      const parsed = parseRule(value, `markers.${name}`, errors);
      if (parsed) markers[name] = parsed;
    }
  }
  if (errors.length || !rule) return { ok: false, errors };
  const rules: JudgeRulesFile = { rule };
  if (typeof wrapped.name === 'string') rules.name = wrapped.name;
  if (wrapped.markers !== undefined) rules.markers = markers;
  return { ok: true, rules };
}
