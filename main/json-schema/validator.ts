// JSON Schema, checked by ajv: the one validator for tool `parameters` (task files, tool calls) and for the
// rules judge's `json_schema` rule. Patterns run on re2js, a linear-time engine, so no schema a user writes
// can make a check take exponential time.
import { createRequire } from 'node:module';
import type Ajv from 'ajv';
import type { ErrorObject, Options, ValidateFunction } from 'ajv';
import type Ajv2019 from 'ajv/dist/2019.js';
import type Ajv2020 from 'ajv/dist/2020.js';
import { RE2JS } from 're2js';

// ajv (CommonJS) is required on the first schema compiled, not when this module loads: it costs every command
// some 80 ms to load, and most (stats, export, labels) never check a schema.
const requireCjs = createRequire(import.meta.url);
const ajvModule = <T>(name: string): T => (requireCjs(name) as { default: T }).default;

/** ajv's pattern hook: a re2js regex behind RegExp's `test`. A pattern re2 cannot read is refused at compile. */
function re2RegExp(pattern: string): { test: (text: string) => boolean } {
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(pattern);
  } catch (error) {
    throw new Error(`pattern ${JSON.stringify(pattern)} is not a regular expression the linear-time engine reads (no lookaround or backreferences): ${(error as Error).message}`, { cause: error });
  }
  return { test: (text: string) => compiled.matcher(text).find() };
}
re2RegExp.code = 're2js';

const options: Options = {
  strict: false, // unknown keywords (tool schemas carry e.g. "examples", vendor keys) are ignored, as in the wild
  allErrors: false,
  addUsedSchema: false, // two tasks may reuse one $id with different schemas
  validateFormats: false, // "format" is an annotation for tools; ajv-formats is not installed
  code: { regExp: re2RegExp },
};

const dialects: { d7?: Ajv; d2019?: Ajv2019; d2020?: Ajv2020 } = {};

/** The validator for the schema's declared dialect (draft-07 when it names none); each is built on first use. */
function ajvFor(schema: object): Ajv {
  const dialect = (schema as { $schema?: unknown }).$schema;
  if (typeof dialect === 'string' && dialect.includes('2020-12')) return (dialects.d2020 ??= new (ajvModule<typeof Ajv2020>('ajv/dist/2020.js'))(options));
  if (typeof dialect === 'string' && dialect.includes('2019-09')) return (dialects.d2019 ??= new (ajvModule<typeof Ajv2019>('ajv/dist/2019.js'))(options));
  return (dialects.d7 ??= new (ajvModule<typeof Ajv>('ajv'))(options));
}

/** The first way a value breaks a schema, as "$.path: problem", or null when it conforms. */
export type SchemaCheck = (value: unknown) => string | null;

/** "$.items[0].id" from ajv's JSON pointer "/items/0/id". */
function jsonPath(pointer: string): string {
  if (pointer === '') return '$';
  return '$' + pointer.split('/').slice(1).map((part) => {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    return /^\d+$/.test(key) ? `[${key}]` : /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
  }).join('');
}

function describe(error: ErrorObject): string {
  const at = jsonPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return `${at}: missing required key "${String(params.missingProperty)}"`;
  if (error.keyword === 'additionalProperties') return `${at}: unexpected key "${String(params.additionalProperty)}"`;
  if (error.keyword === 'enum') return `${at}: must be one of ${JSON.stringify(params.allowedValues)}`;
  if (error.keyword === 'const') return `${at}: must be ${JSON.stringify(params.allowedValue)}`;
  return `${at}: ${error.message ?? 'does not match the schema'}`;
}

const compiled = new WeakMap<object, ValidateFunction>();
// A task set repeats the same tools on every line (each parsed into its own object): compile each text once.
const byText = new Map<string, ValidateFunction>();
const MAX_BY_TEXT = 1000;

/** Compiles a schema (cached per schema object); throws an Error saying why it is not a valid JSON Schema. */
export function compileSchema(schema: unknown): SchemaCheck {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    if (typeof schema === 'boolean') return schema ? () => null : () => '$: no value is allowed (the schema is false)';
    throw new Error('a JSON Schema is an object (or true/false)');
  }
  let validate = compiled.get(schema);
  const text = validate ? '' : JSON.stringify(schema);
  validate ??= byText.get(text);
  if (!validate) {
    try {
      validate = ajvFor(schema).compile(schema);
    } catch (error) {
      const message = (error as Error).message.replace(/^schema is invalid: /, '').replace(/\bdata\//g, '').replace(/\bdata\b/g, 'the schema').split(', ')[0];
      throw new Error(message, { cause: error });
    }
    if (byText.size >= MAX_BY_TEXT) byText.clear();
    byText.set(text, validate);
  }
  compiled.set(schema, validate);
  const check = validate;
  return (value) => (check(value) ? null : describe(check.errors![0]));
}

/** The first way `value` breaks `schema`, or null; a schema that does not compile throws (see compileSchema). */
export function checkJsonSchema(value: unknown, schema: unknown): string | null {
  return compileSchema(schema)(value);
}
