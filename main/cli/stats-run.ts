// Runs a `while-desk stats` job as a client of the typed API: each SOURCE becomes a dataset id or a `{path}`
// source the engine's stats worker reads itself; the CLI computes nothing in its own process.
import fs from 'node:fs';
import path from 'node:path';
import { ApiError } from '../../shared/api/define';
import type { SourceSpec } from '../../shared/stats/registry/index';
import { withEngine } from './open-engine';
import type { StatsSubcommand } from './stats-flags';

/** Named sources of a job by API input key, each a dataset id or a JSONL path (`many` sources are lists). */
export type NamedSources = Record<string, string | string[]>;

export function isFile(source: string): boolean {
  try {
    return fs.statSync(source).isFile();
  } catch {
    return false;
  }
}

export function apiSource(source: string): string | { path: string } {
  if (isFile(source)) return { path: path.resolve(source) };
  if (/\.jsonl?$/i.test(source) || source.includes(path.sep)) throw new ApiError('not_found', `no such file: ${source} (give a JSONL file or a dataset id)`, source);
  return source;
}

/** The API input of a job: sources mapped, judge paths made absolute, the flags' values as given. */
export function statsInput(sub: StatsSubcommand, sources: NamedSources, params: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = { ...params };
  for (const key of ['judge', 'rubric_file']) if (typeof input[key] === 'string') input[key] = path.resolve(input[key] as string);
  for (const spec of sub.stat.sources as readonly SourceSpec[]) {
    const value = sources[spec.key];
    if (value !== undefined) input[spec.key] = Array.isArray(value) ? value.map(apiSource) : apiSource(value);
  }
  return input;
}

export async function runStatsCommand(sub: StatsSubcommand, input: Record<string, unknown>, dbPath: string | undefined): Promise<Record<string, unknown>> {
  return withEngine(dbPath, async (engine) => (await engine.callRaw(sub.stat.method, input)) as Record<string, unknown>);
}
