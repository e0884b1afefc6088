// Runs a `while-desk stats` job: through the engine's worker pool for dataset ids, in this process for files.
import fs from 'node:fs';
import path from 'node:path';
import { ApiError } from '../../shared/api/define';
import { readDatasetRows } from '../rows/index';
import { parseRowLine } from '../datasets/parse-row-line';
import { rowProblem } from '../datasets/row-check';
import type { Engine } from '../engine/engine';
import { requireDataset } from '../engine/handlers/datasets';
import { loadJudge } from '../judges/load-judge';
import { runStatsJob } from '../stats-workers/jobs';
import type { RowSource, StatsJobOutput, StatsJobRequest } from '../stats-workers/protocol';
import { withEngine } from './open-engine';
import type { StatsSubcommand } from './stats-flags';

/** Named sources of a job, each a dataset id or a JSONL path (eval-variance's runs and decontaminate's against are lists). */
export type NamedSources = Record<string, string | string[]>;

export function isFile(source: string): boolean {
  try {
    return fs.statSync(source).isFile();
  } catch {
    return false;
  }
}

/** A JSONL file's rows: each line normalised like an import; a line that is JSON but not a row is kept as it is. */
export function readJsonlRows(file: string): unknown[] {
  const rows: unknown[] = [];
  const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/);
  lines.forEach((raw, index) => {
    const line = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw; // a byte order mark is not part of the row
    if (line.trim() === '') return;
    const parsed = parseRowLine(line, rowProblem);
    if (parsed.ok) {
      rows.push(parsed.row);
      return;
    }
    // Refused everywhere (nesting too deep, a string reward): the same message as `import` gives.
    if (parsed.refused) throw new ApiError('bad_input', `${file}:${index + 1}: ${parsed.message}; fix or remove that line`, `${file}:${index + 1}`);
    try {
      rows.push(JSON.parse(line));
    } catch {
      throw new ApiError('bad_input', `${file}:${index + 1}: ${parsed.message}; fix or remove that line`, `${file}:${index + 1}`);
    }
  });
  return rows;
}

function apiInput(sub: StatsSubcommand, sources: NamedSources, params: Record<string, unknown>): Record<string, unknown> {
  switch (sub.kind) {
    case 'compare': return { ...params, a: sources.a, b: sources.b };
    case 'delta': return { ...params, before: sources.before, after: sources.after };
    case 'eval_variance': return { ...params, dataset_ids: sources.runs };
    case 'holdout_size': return { ...params, ...sources };
    case 'decontaminate': return { ...params, dataset_id: sources.rows, against: sources.against };
    default: return { ...params, dataset_id: sources.rows };
  }
}

const METHOD: Record<StatsSubcommand['kind'], string> = {
  pass_at: 'stats.passAt', reliability: 'stats.reliability', curriculum: 'stats.curriculum', judge_trust: 'stats.judgeTrust',
  compare: 'stats.compare', delta: 'stats.delta', eval_variance: 'stats.evalVariance', holdout_size: 'stats.holdoutSize',
  decontaminate: 'stats.decontaminate',
};

export async function runStatsCommand(sub: StatsSubcommand, sources: NamedSources, params: Record<string, unknown>, dbPath: string | undefined): Promise<StatsJobOutput> {
  if (typeof params.judge === 'string') params.judge = path.resolve(params.judge);
  if (typeof params.rubric_file === 'string') params.rubric_file = path.resolve(params.rubric_file);
  const all = Object.values(sources).flat();
  const missing = all.find((source) => !isFile(source) && (/\.jsonl?$/i.test(source) || source.includes(path.sep)));
  if (missing) throw new ApiError('not_found', `no such file: ${missing} (give a JSONL file or a dataset id)`, missing);
  const anyFile = all.some(isFile);
  if (!anyFile && all.length > 0) {
    return withEngine(dbPath, async (engine) => (await engine.callRaw(METHOD[sub.kind], apiInput(sub, sources, params))) as StatsJobOutput);
  }
  // Files (or no rows at all): compute here, in the CLI's own process; dataset ids beside files are read from the database.
  const ids = all.filter((source) => !isFile(source));
  const run = async (engine: Engine | null) => {
    const resolveOne = (source: string): RowSource => {
      if (isFile(source)) return { rows: readJsonlRows(source) };
      if (!engine) throw new ApiError('not_found', `no such file or dataset: ${source}`);
      requireDataset(engine.ctx, source);
      return { rows: readDatasetRows(engine.ctx.db, source) };
    };
    const requestSources: StatsJobRequest['sources'] = {};
    for (const [name, value] of Object.entries(sources)) requestSources[name] = Array.isArray(value) ? value.map(resolveOne) : resolveOne(value);
    const { judge, rubric_file: rubricFile, ...rest } = params;
    const request: StatsJobRequest = { kind: sub.kind, sources: requestSources, params: rest, judge: typeof judge === 'string' ? { spec: judge, rubricFile: rubricFile as string | undefined } : undefined };
    return runStatsJob(request, (source) => ('rows' in source ? source.rows : []), loadJudge);
  };
  return ids.length > 0 ? withEngine(dbPath, run) : run(null);
}
