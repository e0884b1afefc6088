// Conformance function name -> invoker: every statistic of the registry bound from its declaration (positional
// names, sources, what the SDK returns), plus the helper functions that are not statistics of their own.
import { bootstrapCi, wilsonInterval } from '../../shared/stats/intervals';
import { rowKey, taskKey } from '../../shared/stats/keys';
import { noiseBand } from '../../shared/stats/variance';
import { detectableEffect } from '../../shared/stats/sizing';
import { readsFor, statistics, type AnyStatistic, type ComputeInput, type SourceSpec } from '../../shared/stats/registry/index';
import { projectRows } from '../rows/row-projection';
import { bind } from './functions-bind';
import { judgeFunctions } from './judge-functions';
import { rubricFunctions } from './rubric-functions';
import { markerFunctions } from './marker-functions';
import { platformFunctions } from './platform-functions';
import { trainingFunctions } from './training-functions';
import type { CaseInvoker } from './types';

type Kw = Record<string, unknown>;

export { bind };

/** Drops undefined / the bound leading argument so the rest can be passed as one options object. */
function rest(kw: Kw, ...drop: string[]): Kw {
  const out: Kw = {};
  for (const [key, value] of Object.entries(kw)) if (!drop.includes(key) && value !== undefined) out[key] = value;
  return out;
}

/**
 * A case's bound arguments as the registry's compute input: sources by name, the rest as the SDK's keyword arguments.
 * The rows hold only the fields the statistic declares it reads, as the app's readers hand them (row-projection.ts).
 */
export function computeInput(stat: AnyStatistic, kw: Kw, project = true): ComputeInput {
  const sources: ComputeInput['sources'] = {};
  const taken = new Set<string>();
  for (const spec of stat.sources as readonly SourceSpec[]) {
    const names = [spec.as, spec.key, ...(spec.aliases ?? [])];
    const name = names.find((candidate) => kw[candidate] !== undefined && kw[candidate] !== null);
    names.forEach((candidate) => taken.add(candidate));
    if (name === undefined) continue;
    const value = kw[name];
    // A `many` source given as one row set (rows, not a list of row lists) is that one set.
    sources[spec.as] = spec.many && !(Array.isArray(value) && value.length > 0 && value.every(Array.isArray)) ? [value as unknown[]] : (value as unknown[]);
  }
  const input = { sources, params: rest(kw, ...taken), options: { per_task: true } };
  const reads = project ? readsFor(stat.reads, input) : 'row';
  for (const spec of stat.sources as readonly SourceSpec[]) {
    const rows = sources[spec.as];
    if (Array.isArray(rows)) sources[spec.as] = spec.many ? (rows as unknown[][]).map((set) => projectRows(set, reads)) : projectRows(rows, reads);
  }
  return input;
}

/** The statistic's invoker: bind, compute, and shape the result as the SDK returns it. */
function registryInvoker(stat: AnyStatistic): CaseInvoker {
  const variadic = stat.positional.find((name) => name.startsWith('*'));
  return async (call) => {
    const kw = variadic ? { ...call.kwargs, [variadic.slice(1)]: call.args } : bind([...stat.positional], call);
    const output = (await stat.compute(computeInput(stat, kw))) as Record<string, unknown>;
    return stat.sdkResult ? stat.sdkResult(output) : { result: output.report };
  };
}

// judge_trust is bound in judge-functions.ts beside the probes (a case's judge is a function there).
const registryFunctions: Record<string, CaseInvoker> = Object.fromEntries(
  statistics.filter((stat) => stat.name !== 'judge_trust' && stat.name !== 'reliability').map((stat) => [stat.name, registryInvoker(stat)]),
);

const helperFunctions: Record<string, CaseInvoker> = {
  'task_key+row_key': async (call) => {
    const row = call.args[0] as Record<string, unknown>;
    return { result: { task_key: taskKey(row), row_key: rowKey(row) } };
  },
  wilson_interval: async (call) => {
    const kw = bind(['successes', 'n', 'z'], call);
    return { result: wilsonInterval(kw.successes as number, kw.n as number, (kw.z as number | undefined) ?? undefined) };
  },
  bootstrap_ci: async (call) => {
    const kw = bind(['values', 'stat', 'n_boot', 'seed', 'level'], call);
    return { result: bootstrapCi(kw.values as unknown[], rest(kw, 'values', 'stat')) };
  },
  noise_band: async (call) => {
    const kw = bind(['run_std', 'n_a', 'n_b', 'df', 'level'], call);
    return { result: noiseBand(kw.run_std as number, rest(kw, 'run_std')) };
  },
  detectable_effect: async (call) => {
    const kw = bind(['n_tasks', 'base', 'k', 'power', 'alpha'], call);
    return { result: detectableEffect(kw.n_tasks as number, rest(kw, 'n_tasks')) };
  },
};

/** Functions whose rows are read as Python reads them (whole floats kept as floats): they write rows back out. */
export const pythonFloatFunctions = new Set(Object.keys(trainingFunctions));

export const caseFunctions: Record<string, CaseInvoker> = { ...registryFunctions, ...helperFunctions, ...judgeFunctions, ...platformFunctions, ...trainingFunctions, ...rubricFunctions, ...markerFunctions };
