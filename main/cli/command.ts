// The shape of a `while-desk` subcommand, and the flag parsing they share.
import { parseArgs, type ParseArgsConfig } from 'node:util';

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** True when stdout is a terminal (progress bars only then). */
  isTty: boolean;
}

export interface Command {
  usage: string;
  run(args: string[], io: CliIo): Promise<number>;
}

/** What `--help` lists; the command itself is loaded on demand. */
export interface CommandEntry {
  name: string;
  summary: string;
  load(): Promise<Command>;
}

/** A mistake in how the command was called: printed with the usage, exit code 2. */
export class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

export function parseFlags<O extends Options>(args: string[], options: O, allowPositionals = true) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

export const dbFlag = { db: { type: 'string' } } as const;
export const jsonFlag = { json: { type: 'boolean', default: false } } as const;

export function intFlag(value: string | undefined, name: string, fallback: number, min = Number.MIN_SAFE_INTEGER): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min) throw new UsageError(`--${name} must be a whole number${min > Number.MIN_SAFE_INTEGER ? ` of at least ${min}` : ''} (got "${value}")`);
  return parsed;
}

export function numberFlag(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) throw new UsageError(`--${name} must be a number (got "${value}")`);
  return parsed;
}
