// The reliability curve: pass^k and pass@k for k = 1..K (stats-semantics.md section 5, unbiased estimators),
// from one grouping of the rows; each k's intervals are pass_at's (bootstrap over the tasks scored at k).
import { bootstrapCi } from '../intervals';
import { comb } from '../pass-at';
import { tallyRows } from '../task-tally';
import { minOf } from '../task-means';
import { rowsOf, statistic } from './define';
import { TASK_LABEL_READS } from './reads';

const MAX_K = 64;

/** One point per k, as pass_at(rows, k, min_k = 1) gives them. */
export function reliabilityCurve(rows: readonly unknown[], maxK?: number) {
  const tally = tallyRows(rows);
  const groups = tally.counts.map((n, i) => ({ n, c: tally.sums[i] }));
  const multi = groups.filter((g) => g.n >= 2).map((g) => g.n);
  // pass_at's default k: the smallest group of two or more repeats.
  const defaultK = multi.length ? minOf(multi) : 1;
  const kMax = Math.max(1, Math.min(MAX_K, maxK ?? defaultK));
  const points = [];
  for (let k = 1; k <= kMax; k++) {
    const pow: number[] = [];
    const at: number[] = [];
    for (const { n, c } of groups) {
      if (n < k) continue;
      const total = comb(n, k);
      pow.push(comb(c, k) / total);
      at.push(1 - comb(n - c, k) / total);
    }
    const mean = (xs: number[]) => (xs.length ? xs.reduce((s, x) => s + x, 0) / xs.length : null);
    points.push({
      k,
      pass_pow_k: mean(pow),
      pass_at_k: mean(at),
      pass_pow_k_ci95: pow.length ? bootstrapCi(pow) : null,
      pass_at_k_ci95: at.length ? bootstrapCi(at) : null,
      n_groups_at_k: pow.length,
    });
  }
  return { k_max: kMax, points };
}

export const reliabilityStatistic = statistic({
  name: 'reliability',
  method: 'stats.reliability',
  command: 'reliability',
  summary: 'pass^k and pass@k for k = 1..K with intervals, for the reliability plot',
  sources: [{ key: 'dataset_id', as: 'rows', describe: 'the rows (a dataset or run id, or a JSONL file)' }],
  positional: ['rows', 'max_k'],
  reads: TASK_LABEL_READS,
  schemas: (z) => {
    const point = z.object({
      k: z.number().int(),
      pass_pow_k: z.number().nullable(),
      pass_at_k: z.number().nullable(),
      pass_pow_k_ci95: z.array(z.number()).nullable(),
      pass_at_k_ci95: z.array(z.number()).nullable(),
      n_groups_at_k: z.number().int(),
    });
    return {
      params: z.object({ max_k: z.number().int('must be a whole number').min(1, 'must be at least 1').max(MAX_K, `must be at most ${MAX_K}`).optional() }),
      output: z.object({ k_max: z.number().int(), points: z.array(point) }),
    };
  },
  compute: (input) => reliabilityCurve(rowsOf(input, 'rows'), input.params.max_k as number | undefined),
  sdkResult: (output) => ({ result: output }),
});
