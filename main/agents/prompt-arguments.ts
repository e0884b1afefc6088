// How the seeded agent fills a tool's arguments from the ask's text (and how it invents a wrong one).
type Obj = Record<string, unknown>;

interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function propertiesOf(parameters: Obj | undefined): Array<[string, PropertySchema]> {
  const props = parameters && typeof parameters.properties === 'object' && parameters.properties ? (parameters.properties as Obj) : {};
  return Object.entries(props).map(([name, schema]) => [name, (schema && typeof schema === 'object' ? schema : {}) as PropertySchema]);
}

function requiredOf(parameters: Obj | undefined): Set<string> {
  return new Set(Array.isArray(parameters?.required) ? (parameters.required as unknown[]).map(String) : []);
}

const ID_LIKE = /(?:^|[\s(,:;"'])#?([A-Za-z]{0,8}[-_]?\d[\w-]*)/g;
const NUMBER = /(?<![\w.-])-?\d+(?:\.\d+)?(?![\w-])/;

function typeOf(schema: PropertySchema): string {
  return Array.isArray(schema.type) ? String(schema.type[0]) : (schema.type ?? 'string');
}

/** Reads one value for `name` from the prompt, or undefined when the prompt does not say. */
function valueFor(name: string, schema: PropertySchema, prompt: string, used: Set<string>): unknown {
  const lower = prompt.toLowerCase();
  if (Array.isArray(schema.enum)) return schema.enum.find((option) => lower.includes(String(option).toLowerCase()));
  const labels = [name, name.replace(/[_-]+/g, ' '), name.replace(/_?id$/i, '')].filter((label) => label.length >= 2);
  for (const label of labels) {
    const match = new RegExp(`\\b${escapeRegex(label)}\\b\\s*(?:is|=|:|#)?\\s*"?([\\w.@/#-]+)"?`, 'i').exec(prompt);
    if (match && !/^(is|the|a|an|of|for|to)$/i.test(match[1])) return coerce(match[1].replace(/^#/, ''), schema);
  }
  const type = typeOf(schema);
  if (type === 'number' || type === 'integer') {
    const number = NUMBER.exec(prompt);
    return number ? coerce(number[0], schema) : undefined;
  }
  if (type === 'boolean') return undefined;
  const quoted = /"([^"]{1,200})"|“([^”]{1,200})”|'([^']{2,200})'/.exec(prompt);
  if (quoted) {
    const text = quoted[1] ?? quoted[2] ?? quoted[3];
    if (!used.has(text)) return text;
  }
  for (const match of prompt.matchAll(ID_LIKE)) {
    if (!used.has(match[1])) return match[1];
  }
  const proper = /(?<=\s)([A-Z][a-z]{2,}(?:\s[A-Z][a-z]{2,})?)/.exec(prompt);
  return proper && !used.has(proper[1]) ? proper[1] : undefined;
}

function coerce(text: string, schema: PropertySchema): unknown {
  const type = typeOf(schema);
  if (type === 'number' || type === 'integer') {
    const value = Number(text);
    return Number.isFinite(value) ? value : text;
  }
  return text;
}

/** Arguments for a call: every property the prompt gives a value for (required ones first). */
export function argumentsFromPrompt(prompt: string, parameters: Obj | undefined): Obj {
  const required = requiredOf(parameters);
  const properties = propertiesOf(parameters).sort(([a], [b]) => Number(required.has(b)) - Number(required.has(a)));
  const args: Obj = {};
  const used = new Set<string>();
  for (const [name, schema] of properties) {
    const value = valueFor(name, schema, prompt, used);
    if (value === undefined) continue;
    args[name] = value;
    used.add(String(value));
  }
  return args;
}

/** The same call with one argument swapped for a made-up value (the "invents an argument" misbehaviour). */
export function inventArguments(args: Obj, parameters: Obj | undefined, salt: number): Obj {
  const properties = propertiesOf(parameters);
  const names = Object.keys(args).length > 0 ? Object.keys(args) : properties.map(([name]) => name);
  const made = 1000 + (Math.abs(salt * 7919) % 9000);
  if (names.length === 0) return { id: `X-${made}` };
  const name = names[Math.abs(salt) % names.length];
  const schema = properties.find(([candidate]) => candidate === name)?.[1] ?? {};
  const type = typeOf(schema);
  const invented = type === 'number' || type === 'integer' ? made : Array.isArray(schema.enum) ? `not-${String(schema.enum[0])}` : `X-${made}`;
  return { ...args, [name]: invented };
}
