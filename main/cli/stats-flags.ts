// The flags of `while-desk stats <name>`, read from the statistic registry: each SDK keyword argument (and
// option) is a kebab-case flag whose kind comes from its zod type; sources are positionals or flags.
import type { z } from '../../shared/schema/zod';
import { ApiError, describeZodError } from '../../shared/api/define';
import { statisticSchemas } from '../../shared/api/stats';
import { statistics, type AnyStatistic, type FlagKind, type SourceSpec } from '../../shared/stats/registry/index';
import { UsageError } from './command';

interface FlagSpec {
  /** The API input key it sets. */
  key: string;
  type: FlagKind;
  /** Set when the flag names a row source (holdout-size --before, decontaminate --against). */
  source?: SourceSpec;
}

export interface StatsSubcommand {
  name: string;
  stat: AnyStatistic;
  kind: AnyStatistic['name'];
  /** Positional sources, in order (the last may be `many`). */
  positional: SourceSpec[];
  usage: string;
  flags: Record<string, FlagSpec>;
}

const kebab = (key: string) => key.replace(/_/g, '-');

/** The flag kind a zod type implies (optional/nullable unwrapped; whole numbers are int). */
function kindOf(schema: z.ZodType): FlagKind {
  let s = schema as z.ZodType & { unwrap?: () => z.ZodType; format?: string | null };
  while ((s.def.type === 'optional' || s.def.type === 'nullable') && s.unwrap) s = s.unwrap() as typeof s;
  switch (s.def.type) {
    case 'number': return s.format === 'safeint' ? 'int' : 'number';
    case 'boolean': return 'bool';
    case 'array': return 'list';
    case 'tuple': return 'pair';
    default: return 'string';
  }
}

const PLACEHOLDER: Record<FlagKind, string> = {
  int: 'N', number: 'X', bool: '', string: 'TEXT', list: 'A,B', pair: 'LOW,HIGH', 'int-or-null': 'N|none', by: 'KEY|auto|none', probes: 'all|a,b|none', 'number-or-map': 'X|metric=X,...', json: 'JSON',
};

function sourceWord(source: SourceSpec): string {
  const word = source.as === 'rows' ? 'SOURCE' : source.as.replace(/s$/, '').toUpperCase();
  return source.many ? `${word} [${word} ...]` : word;
}

/** A statistic's subcommand: flags from its parameters' zod types, sources as positionals or flags. */
export function subcommandFor(stat: AnyStatistic): StatsSubcommand {
  const { params, options } = statisticSchemas(stat);
  const overrides = (stat.flags ?? {}) as Record<string, FlagKind>;
  const flags: Record<string, FlagSpec> = {};
  for (const [key, schema] of Object.entries({ ...params.shape, ...(options?.shape ?? {}) })) {
    flags[kebab(key)] = { key, type: overrides[key] ?? kindOf(schema as z.ZodType) };
  }
  const sources = stat.sources as readonly SourceSpec[];
  for (const source of sources.filter((s) => s.cli === 'flag')) {
    for (const flag of [source.key, ...(source.aliases ?? [])]) flags[kebab(flag)] = { key: source.key, type: source.many ? 'list' : 'string', source };
  }
  const positional = sources.filter((s) => s.cli !== 'flag');
  const shown = Object.entries(flags)
    .filter(([flag, spec]) => !spec.source || flag === kebab(spec.source.key))
    .map(([flag, spec]) => {
      const optional = !(spec.source && !spec.source.optional) && !(spec.key in params.shape && !(params.shape[spec.key] as z.ZodType).safeParse(undefined).success);
      const text = `--${flag}${PLACEHOLDER[spec.type] ? ` ${PLACEHOLDER[spec.type]}` : ''}`;
      return optional ? `[${text}]` : text;
    });
  return { name: stat.command, stat, kind: stat.name, positional, usage: [stat.command, ...positional.map(sourceWord), ...shown].join(' '), flags };
}

const subcommands = new Map<string, StatsSubcommand>();

/**
 * The subcommand of a statistic's command name (`pass-at`), or undefined. Built on first use: a command builds only
 * its own statistic's zod schemas, not all ten (some 20 ms of the CLI's start).
 */
export function statsSubcommand(name: string): StatsSubcommand | undefined {
  const stat = statistics.find((candidate) => candidate.command === name);
  if (!stat) return undefined;
  let sub = subcommands.get(stat.command);
  if (!sub) subcommands.set(stat.command, (sub = subcommandFor(stat)));
  return sub;
}

/** Every statistic's subcommand, in the registry's order (`--help`). */
export const allStatsSubcommands = (): StatsSubcommand[] => statistics.map((stat) => statsSubcommand(stat.command) as StatsSubcommand);

/** The parseArgs option table of a subcommand (every value flag is a string; bool flags are booleans). */
export function parseArgsOptions(sub: StatsSubcommand) {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = {};
  for (const [flag, spec] of Object.entries(sub.flags)) {
    options[flag] = spec.type === 'bool' ? { type: 'boolean' } : spec.source?.many ? { type: 'string', multiple: true } : { type: 'string' };
  }
  return options;
}

function num(value: string, flag: string, integer: boolean): number {
  const parsed = Number(value);
  if (value.trim() === '' || !Number.isFinite(parsed) || (integer && !Number.isInteger(parsed))) {
    throw new UsageError(`--${flag} must be ${integer ? 'a whole number' : 'a number'} (got "${value}")`);
  }
  return parsed;
}

const split = (value: string) => value.split(',').map((part) => part.trim()).filter(Boolean);

function convert(flag: string, spec: FlagSpec, raw: string | boolean | string[]): unknown {
  if (spec.type === 'bool') return raw === true;
  if (Array.isArray(raw)) return raw.flatMap(split);
  const value = raw as string;
  switch (spec.type) {
    case 'int': return num(value, flag, true);
    case 'number': return num(value, flag, false);
    case 'int-or-null': return value === 'none' ? null : num(value, flag, true);
    case 'string': return value;
    case 'list': return split(value);
    case 'pair': {
      const parts = split(value);
      if (parts.length !== 2) throw new UsageError(`--${flag} takes two numbers, low,high (got "${value}")`);
      return parts.map((part) => num(part, flag, false));
    }
    case 'by': return value === 'auto' ? null : value === 'none' || value === 'false' ? false : value;
    case 'probes': return value === 'all' ? 'all' : value === 'none' ? null : split(value);
    case 'number-or-map': {
      if (!value.includes('=')) return num(value, flag, false);
      const map: Record<string, number | null> = {};
      for (const part of split(value)) {
        const [name, v] = part.split('=');
        map[name.trim()] = v.trim() === 'none' ? null : num(v, flag, false);
      }
      return map;
    }
    case 'json': {
      try {
        return JSON.parse(value);
      } catch {
        throw new UsageError(`--${flag} takes JSON, e.g. '{"name": ["a phrase"]}' (got ${value})`);
      }
    }
    default: return value;
  }
}

/** Flag values -> the API input keys (only the flags that were given); source flags come back by source key. */
export function flagsToParams(sub: StatsSubcommand, values: Record<string, unknown>): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  for (const [flag, spec] of Object.entries(sub.flags)) {
    const raw = values[flag];
    if (raw === undefined || (spec.type === 'bool' && raw !== true)) continue;
    params[spec.key] = convert(flag, spec, raw as string | boolean | string[]);
  }
  return params;
}

/** The API's ranges, checked here so the message names the flag: `--base must be between 0 and 1 (got 1.5)`. */
export function checkParams(sub: StatsSubcommand, params: Record<string, unknown>): void {
  const { params: schema, options } = statisticSchemas(sub.stat);
  const known = Object.fromEntries(Object.entries(params).filter(([key]) => key in schema.shape || key in (options?.shape ?? {})));
  const checked = (options ? schema.extend(options.shape) : schema).safeParse(known);
  if (checked.success) return;
  const issue = checked.error.issues[0];
  const key = String(issue.path[0] ?? '');
  if (!key) throw new ApiError('bad_input', describeZodError(checked.error));
  if (params[key] === undefined) throw new UsageError(`${sub.name} needs --${kebab(key)}`);
  throw new ApiError('bad_input', `--${kebab(key)} ${issue.message} (got ${JSON.stringify(params[key])})`, `--${kebab(key)}`);
}
