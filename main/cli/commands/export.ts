// while-desk export DATASET_ID OUT.jsonl [--db PATH]
import fs from 'node:fs';
import { once } from 'node:events';
import { type Command, UsageError, dbFlag, parseFlags } from '../command';
import { withEngine } from '../open-engine';
import { requireDataset } from '../../engine/handlers/datasets';
import { iterateRowJson } from '../../db/repos/rows';
import { exportRowJson } from '../../../shared/schema/export-row';

export const exportCommand: Command = {
  usage: 'while-desk export DATASET_ID OUT.jsonl [--db PATH]',
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { ...dbFlag });
    if (positionals.length !== 2) throw new UsageError('give a dataset id and an output file');
    const [id, outFile] = positionals;
    const count = await withEngine(values.db, async (engine) => {
      requireDataset(engine.ctx, id);
      const temp = `${outFile}.partial`;
      const stream = fs.createWriteStream(temp, { encoding: 'utf8' });
      let written = 0;
      let buffer = '';
      for (const json of iterateRowJson(engine.ctx.db, id)) {
        buffer += exportRowJson(json) + '\n';
        written++;
        if (buffer.length > 1 << 20) {
          if (!stream.write(buffer)) await once(stream, 'drain');
          buffer = '';
        }
      }
      stream.end(buffer);
      await once(stream, 'finish');
      fs.renameSync(temp, outFile);
      return written;
    });
    io.out(`exported ${count} rows to ${outFile}\n`);
    return 0;
  },
};
