// while-desk export DATASET_ID OUT.jsonl [--db PATH]: a client of datasets.export (the engine writes the file).
import path from 'node:path';
import { type Command, UsageError, dbFlag, parseFlags } from '../command';
import { withEngine } from '../open-engine';

export const exportCommand: Command = {
  usage: 'while-desk export DATASET_ID OUT.jsonl [--db PATH]',
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { ...dbFlag });
    if (positionals.length !== 2) throw new UsageError('give a dataset id and an output file');
    const [id, outFile] = positionals;
    const { rows } = await withEngine(values.db, (engine) => engine.call('datasets.export', { id, path: path.resolve(outFile) }));
    io.out(`exported ${rows} rows to ${outFile}\n`);
    return 0;
  },
};
