// The stats domain of the typed API, derived from the statistic registry (shared/stats/registry): one method per
// statistic, its input the row sources + the SDK's keyword arguments + this surface's options, its output the
// job id + the statistic's typed result. Every statistic runs in a worker and can be cancelled.
import { z } from '../schema/zod';
import { statistics, type AnyStatistic, type SourceSpec, type StatSchemas } from '../stats/registry/index';
import { method, type MethodSpec } from './define';

const datasetId = z.string().min(1, 'a dataset id is required (a run id is a dataset id)');
/** A row source: a dataset (or run) id, or a JSONL file the worker reads itself (an absolute path). */
export const rowSourceInput = z.union([
  datasetId,
  z.object({ path: z.string().min(1, 'a file path is required').refine((p) => p.startsWith('/') || /^[A-Za-z]:[\\/]/.test(p), 'give an absolute path') }),
]);
export type RowSourceInput = z.infer<typeof rowSourceInput>;
/** The caller may pick the job id up front, so it can cancel a job that has not answered yet. */
const jobId = z.string().min(1).max(100).optional();

export const statsJobState = z.enum(['queued', 'running', 'done', 'failed', 'cancelled']);
export type StatsJobState = z.infer<typeof statsJobState>;

// ---- types derived from the registry (the runtime below builds the same shapes) ----
type SchemasOf<S> = S extends { schemas(z: never): infer X } ? (X extends StatSchemas ? X : never) : never;
// A statistic without options adds no keys.
type NoOptions = {};
type OptionsOut<X> = X extends { options: infer O extends z.ZodObject } ? z.output<O> : NoOptions;
type OptionsIn<X> = X extends { options: infer O extends z.ZodObject } ? z.input<O> : NoOptions;
type SourceValue<T extends SourceSpec, V> = T['many'] extends true ? V[] : V;
type SourcesOut<Src extends readonly SourceSpec[]> = {
  [T in Src[number] as T['optional'] extends true ? never : T['key']]: SourceValue<T, RowSourceInput>;
} & { [T in Src[number] as T['optional'] extends true ? T['key'] : never]?: SourceValue<T, RowSourceInput> };
type InputOut<S extends AnyStatistic> = SourcesOut<S['sources']> & { job_id?: string } & z.output<SchemasOf<S>['params']> & OptionsOut<SchemasOf<S>>;
type InputIn<S extends AnyStatistic> = SourcesOut<S['sources']> & { job_id?: string } & z.input<SchemasOf<S>['params']> & OptionsIn<SchemasOf<S>>;
type OutputOf<S extends AnyStatistic> = { job_id: string } & z.output<SchemasOf<S>['output']>;
type StatMethods = {
  [S in AnyStatistic as S['method']]: MethodSpec<z.ZodType<InputOut<S>, InputIn<S>>, z.ZodType<OutputOf<S>, OutputOf<S>>>;
};
/** A statistic's result as its method returns it (`StatsOutput<'stats.passAt'>['report'].pass_at_1`). */
export type StatsOutput<M extends AnyStatistic['method']> = OutputOf<Extract<AnyStatistic, { method: M }>>;

function sourceShape(spec: SourceSpec): z.ZodType {
  const one = spec.many ? z.array(rowSourceInput).min(1, `name at least one (${spec.describe})`) : rowSourceInput;
  return spec.optional ? one.optional() : one;
}

const built = new Map<string, ReturnType<typeof buildSchemas>>();

/** The input and output schemas of one statistic's method (built once: the API, the handlers and the CLI share them). */
export function statisticSchemas(stat: AnyStatistic) {
  let schemas = built.get(stat.name);
  if (!schemas) built.set(stat.name, (schemas = buildSchemas(stat)));
  return schemas;
}

function buildSchemas(stat: AnyStatistic) {
  const schemas = stat.schemas(z) as StatSchemas;
  const sources = Object.fromEntries(stat.sources.map((source) => [source.key, sourceShape(source)]));
  const input = z.object({ ...sources, job_id: jobId, ...schemas.params.shape, ...(schemas.options?.shape ?? {}) });
  const output = schemas.output.extend({ job_id: z.string() });
  return { ...schemas, input, output };
}

const cancelMethod = { 'stats.cancel': method(z.object({ job_id: z.string().min(1) }), z.object({ cancelled: z.boolean() }), 'Stop a statistics job') } as const;

/**
 * One method per statistic. Each one's schemas are built when it is first read (a getter), so a command or a worker
 * that calls one statistic builds one statistic's zod schemas, not all ten.
 */
export const statsApi = Object.defineProperties(
  { ...cancelMethod },
  Object.fromEntries(
    statistics.map((stat) => [
      stat.method,
      {
        enumerable: true,
        configurable: true, // replaced by its value on first read
        get() {
          const { input, output } = statisticSchemas(stat);
          const spec = method(input, output, stat.summary);
          Object.defineProperty(this, stat.method, { value: spec, enumerable: true, configurable: false, writable: false });
          return spec;
        },
      },
    ]),
  ),
) as unknown as StatMethods & typeof cancelMethod;

export type ReliabilityPoint = StatsOutput<'stats.reliability'>['points'][number];

export const statsEvents = {
  'stats.job': z.object({ job_id: z.string(), method: z.string(), state: statsJobState, message: z.string().optional() }),
} as const;
