// judge_trust (stats-semantics.md section 13): can the judge be trusted (agreement, halves, length bias, probes).
import { judgeTrust } from '../judge-trust';
import { common, rowsOf, statistic, type Zod } from './define';

export function judgeTrustReport(z: Zod) {
  return z.looseObject({
    ok: z.boolean(),
    n_rows: z.number().int(),
    n_labeled: z.number().int(),
    gold_kind: z.string().nullable(),
    agreement: z.looseObject({}),
    held_out_halves: z.looseObject({}),
    length_sensitivity: z.looseObject({}),
    perturbation: z.looseObject({}).nullable(),
    probes: z.looseObject({}).nullable(),
    exploitable_by: z.array(z.string()),
    disagreements: z.array(z.looseObject({})),
    warnings: z.array(z.string()),
  });
}

export const judgeTrustStatistic = statistic({
  name: 'judge_trust',
  method: 'stats.judgeTrust',
  command: 'judge-trust',
  summary: 'Can the judge be trusted: agreement, halves, length bias, probes (spec 13)',
  sources: [{ key: 'dataset_id', as: 'rows', describe: 'labeled rows (a dataset or run id, or a JSONL file)' }],
  positional: ['rows', 'judge'],
  // Whole rows: the judge it re-runs (perturbation, probes) is the user's code and reads what it likes.
  reads: 'row',
  flags: { probes: 'probes' },
  schemas: (z) => {
    const c = common(z);
    return {
      params: z.object({
        gold: z.string().optional(),
        sample: c.atLeast(1).optional(),
        seed: c.seed().optional(),
        concurrency: c.atLeast(1).optional(),
        probes: z.union([z.literal('all'), z.array(z.string()), z.null()]).optional(),
        rubric: z.string().optional(),
        min_agreement: c.unit().optional(),
        min_kappa: c.between(-1, 1).optional(),
        allow_model_gold: z.boolean().optional(),
        length_gap_flag: c.nonNegative().optional(),
        flip_flag: c.unit().optional(),
        max_skipped_share: c.unit().optional(),
        judge_name: z.string().optional(),
      }),
      options: z.object({
        /**
         * The judge to re-run (perturbation, probes), loaded inside the worker: a spec string as the CLI takes it
         * (`FILE.mjs`, `FILE.json`, `llm:<agent spec>`), or judge settings (shared/schema/run-settings.ts: a module,
         * rules or LLM judge), which the engine checks before the job starts.
         */
        judge: z.union([z.string().min(1), z.looseObject({ kind: z.enum(['module', 'rules', 'llm', 'rubric', 'likert']) })]).optional(),
        rubric_file: z.string().optional(),
        /**
         * Read only the rows that carry a gold (the labeling desk's live panel: a few rows re-read after each label,
         * not the whole dataset). The same report but for n_rows and agreement.n_skipped, which count the gold rows
         * only. Gold is read from gold_reward.
         */
        labeled_only: z.boolean().optional(),
      }),
      output: z.object({ report: judgeTrustReport(z) }),
    };
  },
  async compute(input) {
    const params = input.judge ? { ...input.params, judge: input.judge } : input.params;
    return { report: await judgeTrust(rowsOf(input, 'rows'), params) };
  },
});
