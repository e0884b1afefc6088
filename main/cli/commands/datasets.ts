// while-desk datasets [--json] [--db PATH]
import { type Command, dbFlag, jsonFlag, parseFlags } from '../command';
import { withEngine } from '../open-engine';
import { formatTable } from '../table';

export const datasetsCommand: Command = {
  usage: 'while-desk datasets [--json] [--db PATH]',
  async run(args, io) {
    const { values } = parseFlags(args, { ...dbFlag, ...jsonFlag }, false);
    const datasets = await withEngine(values.db, (engine) => engine.call('datasets.list', {}));
    if (values.json) {
      io.out(JSON.stringify(datasets) + '\n');
      return 0;
    }
    if (datasets.length === 0) {
      io.out('no datasets yet: `while-desk import FILE.jsonl` adds one\n');
      return 0;
    }
    const lines = datasets.map((d) => [d.id, d.kind, d.status, String(d.rows), d.name]);
    io.out(formatTable(['ID', 'KIND', 'STATUS', 'ROWS', 'NAME'], lines));
    return 0;
  },
};
