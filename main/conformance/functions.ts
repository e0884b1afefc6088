// Conformance function name -> invoker for the statistics core (positional args bound to the SDK's parameter names).
import { bootstrapCi, wilsonInterval } from '../../shared/stats/intervals';
import { passAt, passAtDict } from '../../shared/stats/pass-at';
import { rowKey, taskKey } from '../../shared/stats/keys';
import { curriculum } from '../../shared/stats/curriculum';
import { compareRuns } from '../../shared/stats/compare-runs';
import { evalVariance, noiseBand } from '../../shared/stats/variance';
import { detectableEffect, holdoutSize } from '../../shared/stats/sizing';
import { decontaminateAsync } from '../../shared/stats/decontaminate';
import { deltaReport } from '../../shared/stats/delta-report';
import { judgeFunctions } from './judge-functions';
import { platformFunctions } from './platform-functions';
import type { CaseInvoker } from './types';

type Kw = Record<string, unknown>;

/** Binds positional arguments to the SDK's parameter names, then overlays the keyword arguments. */
export function bind(names: string[], call: { args: unknown[]; kwargs: Kw }): Kw {
  const out: Kw = {};
  call.args.forEach((value, i) => {
    if (i >= names.length) throw new Error(`too many positional arguments (${call.args.length}) for (${names.join(', ')})`);
    out[names[i]] = value;
  });
  for (const [key, value] of Object.entries(call.kwargs)) out[key] = value;
  return out;
}

/** Drops undefined / the bound leading argument so the rest can be passed as one options object. */
function rest(kw: Kw, ...drop: string[]): Kw {
  const out: Kw = {};
  for (const [key, value] of Object.entries(kw)) if (!drop.includes(key) && value !== undefined) out[key] = value;
  return out;
}

const statsFunctions: Record<string, CaseInvoker> = {
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
  pass_at: async (call) => {
    const kw = bind(['rows', 'k', 'min_k', 'unanimous_short'], call);
    const out = passAt(kw.rows as unknown[], rest(kw, 'rows'));
    return { result: passAtDict(out), aux: { per_task: out.per_task } };
  },
  curriculum: async (call) => {
    const kw = bind(['rows', 'solved', 'floor', 'band', 'tiers', 'min_rollouts'], call);
    return { result: curriculum(kw.rows as unknown[], rest(kw, 'rows')) };
  },
  compare_runs: async (call) => {
    const kw = bind(['a', 'b', 'metric', 'n_boot', 'seed', 'min_paired', 'level'], call);
    return { result: compareRuns(kw.a as unknown[], kw.b as unknown[], rest(kw, 'a', 'b')) };
  },
  eval_variance: async (call) => ({ result: evalVariance(call.args, call.kwargs) }),
  noise_band: async (call) => {
    const kw = bind(['run_std', 'n_a', 'n_b', 'df', 'level'], call);
    return { result: noiseBand(kw.run_std as number, rest(kw, 'run_std')) };
  },
  holdout_size: async (call) => {
    const kw = bind(['effect', 'base', 'k', 'power', 'alpha', 'before', 'after', 'task_std', 'rows', 'ceiling_pass_rate'], call);
    return { result: holdoutSize(kw.effect as number, rest(kw, 'effect')) };
  },
  detectable_effect: async (call) => {
    const kw = bind(['n_tasks', 'base', 'k', 'power', 'alpha'], call);
    return { result: detectableEffect(kw.n_tasks as number, rest(kw, 'n_tasks')) };
  },
  decontaminate: async (call) => {
    const kw = bind(['rows', 'against', 'n', 'fields', 'overlap', 'embedder', 'similarity'], call);
    const out = await decontaminateAsync(kw.rows as unknown[], kw.against, rest(kw, 'rows', 'against') as never);
    return { result: { kept_indices: out.kept_indices, report: out.report } };
  },
  delta_report: async (call) => {
    const kw = bind(['before', 'after'], { args: call.args, kwargs: {} });
    return { result: deltaReport(kw.before as unknown[], kw.after as unknown[], call.kwargs) };
  },
};

export const caseFunctions: Record<string, CaseInvoker> = { ...statsFunctions, ...judgeFunctions, ...platformFunctions };
