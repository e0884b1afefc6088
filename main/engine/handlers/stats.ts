// Handlers for the stats domain, one per statistic of the registry: sources resolved, the SDK's arguments passed
// on as given, the job run in the worker pool (never on the engine's thread).
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../../shared/api/define';
import { judgeSettings, type JudgeSettings } from '../../../shared/schema/run-settings';
import { statisticSchemas, type RowSourceInput, type statsApi } from '../../../shared/api/stats';
import { statistics, type AnyStatistic, type SourceSpec } from '../../../shared/stats/registry/index';
import { readDatasetRows, readLabeledRows } from '../../rows/index';
import { existingStatsPool, runStatistic } from '../../stats-workers/engine-pool';
import type { JobSource, StatsJobRequest } from '../../stats-workers/protocol';
import type { EngineContext } from '../context';
import { requireDataset } from './require-dataset';
import type { HandlerMap } from './types';

type Obj = Record<string, unknown>;

/** A dataset as a row source: workers read it themselves, unless the database lives only in this process. A file the worker reads. */
export function rowSource(ctx: EngineContext, given: RowSourceInput, labeledOnly = false): JobSource {
  if (typeof given !== 'string') return { path: given.path };
  requireDataset(ctx, given);
  if (ctx.dbPath === ':memory:') return { rows: labeledOnly ? readLabeledRows(ctx.db, given) : readDatasetRows(ctx.db, given) };
  return labeledOnly ? { dataset_id: given, labeled_only: true } : { dataset_id: given };
}

/** The judge to hand the worker: a spec string as given (the worker parses it as the CLI does), or checked settings. */
function judgeOf(judge: unknown, rubricFile: unknown): StatsJobRequest['judge'] {
  if (judge === undefined) return undefined;
  if (typeof judge === 'string') return { spec: judge, rubricFile: rubricFile as string | undefined };
  const parsed = judgeSettings.safeParse(judge);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ApiError('bad_input', `judge ${issue.path.join('.')}: ${issue.message}`, 'judge');
  }
  return { spec: parsed.data as JudgeSettings, rubricFile: rubricFile as string | undefined };
}

/** Only the keys the caller gave; the statistics apply the SDK's defaults to the rest. */
function given(input: Obj, keys: string[]): Obj {
  const out: Obj = {};
  for (const key of keys) if (input[key] !== undefined) out[key] = input[key];
  return out;
}

function handlerFor(stat: AnyStatistic) {
  // The statistic's schemas on its first call, not when the handlers load (one command calls one statistic).
  let keys: { paramKeys: string[]; optionKeys: string[] } | null = null;
  return async (input: Obj, ctx: EngineContext): Promise<Obj> => {
    if (!keys) {
      const schemas = statisticSchemas(stat);
      keys = { paramKeys: Object.keys(schemas.params.shape), optionKeys: Object.keys(schemas.options?.shape ?? {}) };
    }
    const { paramKeys, optionKeys } = keys;
    const jobId = (input.job_id as string | undefined) ?? randomUUID();
    const sources: StatsJobRequest['sources'] = {};
    // judge_trust's labeled_only: the worker reads only the dataset's gold rows.
    const labeledOnly = input.labeled_only === true;
    for (const spec of stat.sources as readonly SourceSpec[]) {
      const value = input[spec.key] as RowSourceInput | RowSourceInput[] | undefined;
      if (value === undefined) continue;
      sources[spec.as] = Array.isArray(value) ? value.map((one) => rowSource(ctx, one, labeledOnly)) : rowSource(ctx, value, labeledOnly);
    }
    const { judge, rubric_file: rubricFile, labeled_only: _labeledOnly, ...options } = given(input, optionKeys);
    const out = await runStatistic(ctx, stat.name, sources, given(input, paramKeys), {
      jobId,
      options,
      judge: judgeOf(judge, rubricFile),
      onState: (state, message) => ctx.emit('stats.job', { job_id: jobId, method: stat.method, state, message }),
    });
    return { ...out, job_id: jobId };
  };
}

type StatsMethod = keyof typeof statsApi;

export const statsHandlers = {
  ...Object.fromEntries(statistics.map((stat) => [stat.method, handlerFor(stat)])),
  'stats.cancel': (input: { job_id: string }, ctx: EngineContext) => ({ cancelled: existingStatsPool(ctx)?.cancel(input.job_id) ?? false }),
} as unknown as HandlerMap<StatsMethod>;

