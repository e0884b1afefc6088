// hack_scan (docs/hack-scan.md): what a grouped RL update would learn from this reward, ranked against a noise floor.
import { hackScan } from '../hack-scan';
import { hackScanReads } from './reads';
import { common, rowsOf, statistic, type Zod } from './define';

export function hackScanReport(z: Zod) {
  const count = z.number().int();
  const feature = z.looseObject({
    name: z.string(),
    aliases: z.array(z.string()),
    rho: z.number(),
    pooled: z.number(),
    n_obs: count,
    above_floor: z.boolean(),
    endorsed: z.boolean(),
  });
  return z.looseObject({
    regime: z.enum(['train', 'reward_hack', 'pool_exhausted', 'no_signal', 'degenerate', 'unknown']),
    n_rows: count, n_graded: count, n_groups: count, n_groups_multi: count, rollouts_per_group: count, effective_rollouts: count,
    support: z.looseObject({ sat: z.number(), dead: z.number(), mixed: z.number(), capacity: z.number() }),
    tau: z.number().nullable(),
    n_perm: count, n_features: count, n_above_floor: count,
    features: z.array(feature),
    top_feature: z.string().nullable(),
    rho_max: z.number(),
    endorsed: z.array(z.string()),
    endorsed_matched: count,
    endorsed_on_top: z.boolean().nullable(),
    integrity: z.number().nullable(),
    inverted: z.array(z.string()),
    continuous_reward: z.boolean(),
    degenerate: z.boolean(),
    collinear: z.array(z.string()),
    distinct_per_ask: count,
    warnings: z.array(z.string()),
  });
}

export const hackScanStatistic = statistic({
  name: 'hack_scan',
  method: 'stats.hackScan',
  command: 'hack-scan',
  summary: 'What a grouped RL update would learn from this reward: features ranked within ask against a noise floor (docs/hack-scan.md)',
  sources: [{ key: 'dataset_id', as: 'rows', describe: 'graded rollouts, several per ask (a dataset or run id, or a JSONL file)' }],
  positional: ['rows'],
  // The fields hack_scan reads (hack-scan.ts, hack-scan-rows.ts, row-hygiene.ts, conversation.ts): `prompt` (the
  // ask), the reward field `reward` names, the reply (`final_text`, `messages`, else the conversation rebuilt from
  // `opener`, `prompt`, `steps`), the tools (`steps`, else `tool_trace`), truncation (`reason`, `grader_reason`),
  // `logprob`, `n_tokens` and `markers`. The trace flags (hack-scan-trace.ts) read the same trajectory fields.
  reads: hackScanReads,
  flags: { top_features: 'int-or-null' },
  schemas: (z) => {
    const c = common(z);
    return {
      params: z.object({
        endorsed: z.array(z.string()).optional(),
        auto: z.boolean().optional(),
        top_k: c.atLeast(0).optional(),
        n_perm: c.atLeast(1).optional(),
        min_obs: c.atLeast(1).optional(),
        seeds: c.atLeast(0).optional(),
        reward: z.string().min(1, 'name the reward field').optional(),
        seed: c.seed().optional(),
        top_features: c.atLeast(0).nullable().optional(),
        alpha: c.unitOpen().optional(),
      }),
      output: z.object({ report: hackScanReport(z) }),
    };
  },
  compute(input) {
    return { report: hackScan(rowsOf(input, 'rows'), input.params) };
  },
});
