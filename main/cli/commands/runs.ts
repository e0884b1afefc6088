// while-desk runs [--json]: every run with its status and rows so far.
import { type Command, dbFlag, jsonFlag, parseFlags } from '../command';
import { withEngine } from '../open-engine';
import { formatTable } from '../table';

export const runsCommand: Command = {
  usage: 'while-desk runs [--json] [--db PATH]',
  async run(args, io) {
    const { values } = parseFlags(args, { ...dbFlag, ...jsonFlag }, false);
    const runs = await withEngine(values.db, (engine) => engine.call('runs.list', {}));
    if (values.json) {
      io.out(JSON.stringify(runs) + '\n');
      return 0;
    }
    if (runs.length === 0) {
      io.out('no runs yet: `while-desk run --tasks FILE --agent seeded --k 4` starts one\n');
      return 0;
    }
    const lines = runs.map((r) => [r.id, r.status, `${r.rows}/${r.expected_rows}`, r.agent, r.judge ?? '-', r.name]);
    io.out(formatTable(['ID', 'STATUS', 'ROWS', 'AGENT', 'JUDGE', 'NAME'], lines));
    return 0;
  },
};
