// Conformance invokers for the platform rules (shared/conformance/README.md, "Platform rules": call shapes and result shapes).
import {
  brief,
  evalChecks,
  holdoutSplit,
  noiseFloor,
  publishGate,
  sweepLabels,
  sweepReport,
  verdict,
  type BehaviorWire,
  type DashboardWire,
  type RunRow,
  type SweepVariantInput,
} from '../../shared/platform';
import type { CaseInvoker } from './types';

type Kw = Record<string, unknown>;

/** The agent id the noise_floor cases' PUT names (README: "agent id `a`"). */
const CASE_AGENT = 'a';

function bind(names: string[], call: { args: unknown[]; kwargs: Kw }): Kw {
  if (call.args.length > names.length) throw new Error(`too many positional arguments (${call.args.length}) for (${names.join(', ')})`);
  const out: Kw = {};
  call.args.forEach((value, i) => { out[names[i]] = value; });
  return { ...out, ...call.kwargs };
}

const list = <T>(value: unknown, what: string): T[] => {
  if (!Array.isArray(value)) throw new Error(`${what} must be a list`);
  return value as T[];
};

export const platformFunctions: Record<string, CaseInvoker> = {
  verdict: async (call) => {
    const kw = bind(['dashboard', 'behaviors', 'runs'], call);
    const opts = { behavior: kw.behavior as string | undefined, version: kw.version as string | undefined };
    return { result: verdict(kw.dashboard as DashboardWire, list<BehaviorWire>(kw.behaviors, 'behaviors'), list<RunRow>(kw.runs, 'runs'), opts) };
  },
  eval_checks: async (call) => {
    const kw = bind(['behavior', 'versions'], call);
    return { result: evalChecks(kw.behavior as BehaviorWire, list(kw.versions, 'versions')) };
  },
  brief: async (call) => {
    const kw = bind(['dashboard', 'behaviors', 'runs'], call);
    return { result: brief(kw.dashboard as DashboardWire, list<BehaviorWire>(kw.behaviors, 'behaviors'), list<RunRow>(kw.runs, 'runs')) };
  },
  noise_floor: async (call, env) => {
    const [name, ...reruns] = call.args;
    const platform = (env.platform ?? {}) as { behaviors?: BehaviorWire[] };
    const out = noiseFloor(name as string, reruns as unknown[][], { agent: CASE_AGENT, metric: call.kwargs.metric as string | undefined, behaviors: platform.behaviors });
    return { result: out.report, aux: { put: out.put } };
  },
  sweep_report: async (call) => {
    const kw = bind(['variants'], call);
    return { result: sweepReport(list<SweepVariantInput>(kw.variants, 'variants'), kw) };
  },
  sweep_labels: async (call) => {
    const kw = bind(['harnesses'], call);
    return { result: sweepLabels(list(kw.harnesses, 'harnesses'), { behavior: kw.behavior as string | undefined }) };
  },
  publish_gate: async (call) => {
    const kw = bind(['rows'], call);
    const out = publishGate(list(kw.rows, 'rows'), kw);
    return { result: { report: out.report, stamps: out.stamps } };
  },
  holdout_split: async (call) => {
    const kw = bind(['rows', 'fraction'], call);
    return { result: holdoutSplit(list(kw.rows, 'rows'), kw.fraction as number | null) };
  },
};
