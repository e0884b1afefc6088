// `while-desk stats NAME SOURCE... [flags]`: flags and sources read from the registry, the job run through the API.
import { type CliIo, UsageError, dbFlag, jsonFlag, parseFlags } from './command';
import { allStatsSubcommands, checkParams, flagsToParams, parseArgsOptions, statsSubcommand, type StatsSubcommand } from './stats-flags';
import { printStats } from './stats-print';
import { type NamedSources, runStatsCommand, statsInput } from './stats-run';

/** Positionals and source flags -> the job's sources by API input key (source flags leave `params`). */
function namedSources(sub: StatsSubcommand, positionals: string[], params: Record<string, unknown>): NamedSources {
  const sources: NamedSources = {};
  for (const spec of sub.stat.sources) {
    if ((spec as { cli?: string }).cli !== 'flag') continue;
    const value = params[spec.key];
    delete params[spec.key];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) {
      if (!('optional' in spec && spec.optional)) throw new UsageError(`${sub.name} needs --${spec.key} (${spec.describe}; a dataset id or JSONL file)`);
      continue;
    }
    sources[spec.key] = value as string | string[];
  }
  const many = sub.positional.find((spec) => spec.many);
  if (many) {
    if (positionals.length === 0) throw new UsageError(`${sub.name} needs at least one dataset id or JSONL file`);
    sources[many.key] = positionals;
    return sources;
  }
  const want = sub.positional.length;
  if (positionals.length !== want) {
    const what = want === 0 ? 'no positional arguments' : want === 1 ? 'one dataset id or JSONL file' : `${want} dataset ids or JSONL files`;
    throw new UsageError(`${sub.name} takes ${what} (got ${positionals.length})`);
  }
  sub.positional.forEach((spec, i) => (sources[spec.key] = positionals[i]));
  return sources;
}

/** The usage of every statistic's subcommand (built when asked: it needs every statistic's flags). */
export const statsUsage = (): string =>
  [
    'while-desk stats <statistic> SOURCE... [flags] [--json] [--db PATH]',
    'A SOURCE is a dataset or run id, or a JSONL file. Statistics:',
    ...allStatsSubcommands().map((sub) => `  ${sub.usage}`),
  ].join('\n');

export async function runStats(args: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = args;
  const sub = name ? statsSubcommand(name) : undefined;
  if (!sub) throw new UsageError(name ? `unknown statistic "${name}"` : 'name a statistic');
  const { values, positionals } = parseFlags(rest, { ...dbFlag, ...jsonFlag, ...parseArgsOptions(sub) } as never);
  const flagValues = values as Record<string, unknown>;
  const params = flagsToParams(sub, flagValues);
  const sources = namedSources(sub, positionals, params);
  checkParams(sub, params);
  const output = await runStatsCommand(sub, statsInput(sub, sources, params), flagValues.db as string | undefined);
  if (flagValues.json) {
    const { job_id: _jobId, ...result } = output;
    void _jobId;
    const sdk = sub.stat.sdkResult ? sub.stat.sdkResult(result).result : result.report;
    io.out(JSON.stringify(sdk) + '\n');
  } else {
    io.out(printStats(sub.kind, output as never));
  }
  return 0;
}
