// while-desk stats pass-at|curriculum|judge-trust|compare|delta|eval-variance|holdout-size|decontaminate
import { type Command, UsageError, dbFlag, jsonFlag, parseFlags } from '../command';
import { flagsToParams, parseArgsOptions, statsSubcommands, type StatsSubcommand } from '../stats-flags';
import { printStats } from '../stats-print';
import { type NamedSources, runStatsCommand } from '../stats-run';

const SOURCE_NAMES: Record<string, string[]> = { compare: ['a', 'b'], delta: ['before', 'after'] };

function namedSources(sub: StatsSubcommand, positionals: string[], params: Record<string, unknown>): NamedSources {
  const want = sub.sources;
  if (want === 'none') {
    if (positionals.length) throw new UsageError(`${sub.name} takes no positional arguments (use --before/--after)`);
    const sources: NamedSources = {};
    const before = params.before ?? params.rows;
    if (typeof before === 'string') sources.before = before;
    if (typeof params.after === 'string') sources.after = params.after;
    delete params.before;
    delete params.after;
    delete params.rows;
    return sources;
  }
  if (want === 'many') {
    if (positionals.length === 0) throw new UsageError(`${sub.name} needs at least one dataset id or JSONL file`);
    return { runs: positionals };
  }
  if (positionals.length !== want) {
    throw new UsageError(`${sub.name} takes ${want === 1 ? 'one dataset id or JSONL file' : `${want} dataset ids or JSONL files`} (got ${positionals.length})`);
  }
  if (want === 2) return { [SOURCE_NAMES[sub.kind][0]]: positionals[0], [SOURCE_NAMES[sub.kind][1]]: positionals[1] };
  if (sub.kind === 'decontaminate') {
    const against = params.against as string[] | undefined;
    if (!against?.length) throw new UsageError('decontaminate needs --against EVAL (a dataset id or JSONL file; repeat for several)');
    delete params.against;
    return { rows: positionals[0], against };
  }
  return { rows: positionals[0] };
}

const usage = [
  'while-desk stats <statistic> SOURCE... [flags] [--json] [--db PATH]',
  'A SOURCE is a dataset or run id, or a JSONL file. Statistics:',
  ...statsSubcommands.map((sub) => `  ${sub.usage}`),
].join('\n');

export const statsCommand: Command = {
  usage,
  async run(args, io) {
    const [name, ...rest] = args;
    const sub = statsSubcommands.find((candidate) => candidate.name === name);
    if (!sub) throw new UsageError(name ? `unknown statistic "${name}"` : 'name a statistic');
    const { values, positionals } = parseFlags(rest, { ...dbFlag, ...jsonFlag, ...parseArgsOptions(sub) } as never);
    const flagValues = values as Record<string, unknown>;
    const params = flagsToParams(sub, flagValues);
    if (sub.kind === 'holdout_size' && params.effect === undefined) throw new UsageError('holdout-size needs --effect (the gain to detect, e.g. 0.05)');
    const sources = namedSources(sub, positionals, params);
    const output = await runStatsCommand(sub, sources, params, flagValues.db as string | undefined);
    if (flagValues.json) {
      const json = sub.kind === 'decontaminate' ? { kept_indices: output.kept_indices ?? [], report: output.report } : output.report;
      io.out(JSON.stringify(json) + '\n');
    } else {
      io.out(printStats(sub.kind, output));
    }
    return 0;
  },
};
