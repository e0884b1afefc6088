// The pairs domain: a pairwise judge over two datasets (or JSONL files) paired by task, each pair asked both ways
// round (judge_pairs, docs/judges-rubric-pairwise.md). A's row is the pair's first side ("chosen" in the SDK's
// report), B's the second; the report keys are the SDK's.
import { z } from '../schema/zod';
import { agentSettings } from '../schema/run-settings';
import { method } from './define';

/** A dataset id in this desk, or a JSONL file the engine reads itself. */
export const pairSource = z.union([z.string().min(1, 'a dataset id or a file'), z.object({ path: z.string().min(1) })]);

export const pairsJudgeInput = z.object({
  a: pairSource,
  b: pairSource,
  /** The judge's model: seeded (an offline dry run), llama:FILE.gguf or openai:MODEL@URL. */
  judge: agentSettings,
  swap: z.boolean().default(true),
  /** Per-question deadline, seconds. */
  timeout_s: z.number().positive().max(3600).optional(),
  concurrency: z.number().int().min(1).max(64).optional(),
});

const pairOutcome = z.object({
  task: z.string(),
  /** "A", "B", "tie", or null when the judge failed on the pair. */
  winner: z.enum(['A', 'B', 'tie']).nullable(),
  position_consistent: z.boolean().nullable(),
  reasons: z.array(z.string()),
});

export const pairsJudgeOutput = z.object({
  /** judge_pairs's report, SDK keys (chosen = A, rejected = B). */
  report: z.object({
    n: z.number().int(),
    n_judged: z.number().int(),
    failed: z.number().int(),
    judge: z.string(),
    swap: z.boolean(),
    position_flip_rate: z.number().nullable(),
    tie_rate: z.number().nullable(),
    agrees_with_scores: z.number().nullable(),
    prefers_rejected: z.number().int(),
    disagreements: z.array(z.record(z.string(), z.unknown())),
    warnings: z.array(z.string()),
  }),
  /** Winner counts by side: A, B, tie, and pairs the judge failed on. */
  counts: z.object({ A: z.number().int(), B: z.number().int(), tie: z.number().int(), failed: z.number().int() }),
  /** Questions asked of the model (two per pair with swap). */
  asked: z.number().int(),
  tasks_a: z.number().int(),
  tasks_b: z.number().int(),
  pairs: z.array(pairOutcome),
});
export type PairsJudgeOutput = z.infer<typeof pairsJudgeOutput>;

const datasetId = z.string().min(1, 'a dataset id is required');
export const pairPick = z.enum(['a', 'b', 'tie']);

const agreementReport = z.object({
  n_labeled: z.number().int(),
  n: z.number().int(),
  n_sides: z.number().int(),
  agrees_with_human: z.number().nullable(),
  ci95: z.tuple([z.number(), z.number()]).nullable(),
  prefers_other: z.number().int(),
  judge_ties: z.number().int(),
  human_ties: z.number().int(),
  ties_matched: z.number().int(),
  exact_agreement: z.number().nullable(),
  disagreements: z.array(z.object({ pair_key: z.string(), judge: z.string(), human: z.string() })),
  warnings: z.array(z.string()),
});

export const pairQueueItem = z.object({
  task: z.string(),
  index: z.number().int(),
  prompt: z.string(),
  a_text: z.string(),
  b_text: z.string(),
  /** The latest pairs.judge run's winner on this pair: chosen (A), rejected (B), tie; null none or failed. */
  judge: z.enum(['chosen', 'rejected', 'tie']).nullable(),
  /** This annotator's current pick. */
  my_pick: pairPick.nullable(),
});
export type PairQueueItem = z.infer<typeof pairQueueItem>;

export const pairsQueueOutput = z.object({ pairs: z.array(pairQueueItem), judge: z.string().nullable(), agreement: agreementReport });
export type PairsQueueOutput = z.infer<typeof pairsQueueOutput>;

export const pairsApi = {
  'pairs.queue': method(
    z.object({ a: datasetId, b: datasetId, annotator: z.string().max(200).optional() }),
    pairsQueueOutput,
    "The pairs of two datasets (same task) for the label desk's pair mode, with the judge's winners and the pairwise agreement",
  ),
  'pairs.label': method(
    z.object({ a: datasetId, b: datasetId, task: z.string(), index: z.number().int().min(0), annotator: z.string().trim().min(1, 'an annotator name is required').max(200), pick: pairPick.nullable() }),
    z.object({ label_id: z.number().int() }),
    "Store a person's pick on a pair: a, b, tie (=), or null to withdraw it",
  ),
  'pairs.judge': method(pairsJudgeInput, pairsJudgeOutput, 'Judge two datasets pair by pair (same task), both ways round: winners, ties, position_flip_rate'),
} as const;
