// decontaminate (stats-semantics.md section 11): training rows that overlap the evaluation set.
import { decontaminateAsync } from '../decontaminate';
import { common, rowSetsOf, rowsOf, statistic } from './define';

export const decontaminateStatistic = statistic({
  name: 'decontaminate',
  method: 'stats.decontaminate',
  command: 'decontaminate',
  summary: 'Training rows that overlap the evaluation set (spec 11)',
  sources: [
    { key: 'dataset_id', as: 'rows', describe: 'the training rows (a dataset or run id, or a JSONL file)' },
    { key: 'against', as: 'against', many: true, cli: 'flag', describe: 'the evaluation set(s) to check the rows against' },
  ],
  positional: ['rows', 'against', 'n', 'fields', 'overlap', 'embedder', 'similarity'],
  // Whole rows: its texts come from the fields its `fields` names and from the rows' own text fields.
  reads: 'row',
  schemas: (z) => {
    const c = common(z);
    return {
      params: z.object({
        n: c.atLeast(1).optional(),
        fields: z.array(z.string()).min(1, 'name at least one field').optional(),
        overlap: c.unit().optional(),
      }),
      output: z.object({ report: z.looseObject({}), kept_indices: z.array(z.number().int()) }),
    };
  },
  async compute(input) {
    const against = rowSetsOf(input, 'against');
    const out = await decontaminateAsync(rowsOf(input, 'rows'), against.length === 1 ? against[0] : against, input.params);
    return { report: out.report as unknown as Record<string, unknown>, kept_indices: out.kept_indices };
  },
  sdkResult: (output) => ({ result: { kept_indices: output.kept_indices, report: output.report } }),
});
