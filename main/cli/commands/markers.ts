// while-desk markers DATASET [--json]: stamps the style, trace and grounding markers into a stored dataset's rows
// (datasets.stampMarkers; a row's own markers kept, so a second run changes nothing) and prints their
// marker_summary. A JSONL file is not stored: its rows are stamped as read (`stats marker-summary --stamp`).
import type { Command } from '../command';
import { UsageError, dbFlag, jsonFlag, parseFlags } from '../command';

export const markersCommand: Command = {
  usage: 'while-desk markers DATASET [--names a,b] [--n-boot N] [--seed N] [--json] [--db PATH]',
  async run(args, io) {
    if (!args.length || args[0].startsWith('-')) throw new UsageError('name a dataset (an id, or a JSONL file)');
    const [{ runStats }, { isFile }, { parseArgsOptions, statsSubcommand }] = await Promise.all([import('../stats-command'), import('../stats-run'), import('../stats-flags')]);
    if (isFile(args[0])) return runStats(['marker-summary', ...args, '--stamp'], io);
    // The summary's own flags, read as `stats marker-summary` reads them (a wrong flag stops before anything is written).
    const { values } = parseFlags(args.slice(1), { ...dbFlag, ...jsonFlag, ...parseArgsOptions(statsSubcommand('marker-summary')!) } as never);
    const { withEngine } = await import('../open-engine');
    const db = (values as { db?: string }).db;
    const stamp = await withEngine(db, (engine) => engine.call('datasets.stampMarkers', { id: args[0] }));
    if (!(values as { json?: boolean }).json) io.out(`stamped ${stamp.stamped} of ${stamp.rows} rows (dataset version ${stamp.version})\n`);
    return runStats(['marker-summary', ...args], io);
  },
};
