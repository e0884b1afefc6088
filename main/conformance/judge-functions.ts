// Conformance invokers for attach_labels, judge_trust and judge_probes (shared/conformance/README.md output shapes).
import { attachLabels } from '../../shared/stats/labels';
import { judgeTrust, type JudgeTrustOptions } from '../../shared/stats/judge-trust';
import { judgeProbes, type JudgeProbesOptions } from '../../shared/stats/judge-probes';
import { rowKey } from '../../shared/stats/keys';
import type { AnyJudge } from '../../shared/stats/judge-fn';
import type { CaseInvoker } from './types';

type Kw = Record<string, unknown>;
const CALL_TIME = '<call time>';

/** Binds positional arguments to the SDK's parameter names, then overlays the keyword arguments. */
function bind(names: string[], call: { args: unknown[]; kwargs: Kw }): Kw {
  if (call.args.length > names.length) throw new Error(`too many positional arguments (${call.args.length}) for (${names.join(', ')})`);
  const out: Kw = {};
  call.args.forEach((value, i) => { out[names[i]] = value; });
  return { ...out, ...call.kwargs };
}

function without(kw: Kw, ...drop: string[]): Kw {
  const out: Kw = {};
  for (const [key, value] of Object.entries(kw)) if (!drop.includes(key) && value !== undefined) out[key] = value;
  return out;
}

function asJudge(value: unknown, fallback: AnyJudge | undefined): AnyJudge | null {
  if (typeof value === 'function') return value as AnyJudge;
  return value === undefined ? (fallback ?? null) : null;
}

export const judgeFunctions: Record<string, CaseInvoker> = {
  attach_labels: async (call) => {
    const kw = bind(['rows', 'labels'], call);
    if (!Array.isArray(kw.rows)) throw new Error('attach_labels: rows must be a list of row objects');
    // The oracle prints a label stamped with the call time as "<call time>"; so does this output.
    const now = Date.now() / 1000;
    const { rows, report } = attachLabels(kw.rows, kw.labels, { ...without(kw, 'rows', 'labels'), now });
    const shown = (labels: unknown) =>
      Array.isArray(labels) ? labels.map((r) => (r && typeof r === 'object' && (r as Kw).ts === now ? { ...(r as Kw), ts: CALL_TIME } : r)) : [];
    return {
      result: {
        report,
        rows: rows.map((row, index) => ({
          index,
          row_key: rowKey(row),
          gold_reward: row.gold_reward ?? null,
          gold_kind: row.gold_kind ?? null,
          gold_labels: shown(row.gold_labels),
        })),
      },
    };
  },
  judge_trust: async (call) => {
    const kw = bind(['rows', 'judge'], call);
    const options = without(kw, 'rows', 'judge') as JudgeTrustOptions;
    options.judge = asJudge(kw.judge, undefined);
    return { result: await judgeTrust(kw.rows as unknown[], options) };
  },
  judge_probes: async (call, env) => {
    const kw = bind(['rows', 'judge'], call);
    const judge = asJudge(kw.judge, env.judge);
    if (!judge) throw new Error('judge_probes: no judge given; the case must name one ($judge)');
    return { result: await judgeProbes(kw.rows as unknown[], judge, without(kw, 'rows', 'judge') as JudgeProbesOptions) };
  },
};
