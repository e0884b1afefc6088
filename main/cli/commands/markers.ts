// while-desk markers DATASET [--json]: the dataset's rows stamped with the style, trace and grounding markers
// (a judge's own markers kept) and their marker_summary, as `stats marker-summary --stamp` computes it through the
// typed API (docs/markers.md). The stamp is computed on the rows as read; it is not written back to the dataset.
import type { Command } from '../command';
import { UsageError } from '../command';

export const markersCommand: Command = {
  usage: 'while-desk markers DATASET [--names a,b] [--n-boot N] [--seed N] [--json] [--db PATH]',
  async run(args, io) {
    if (!args.length || args[0].startsWith('-')) throw new UsageError('name a dataset (an id, or a JSONL file)');
    const { runStats } = await import('../stats-command');
    return runStats(['marker-summary', ...args, '--stamp'], io);
  },
};
