// while-desk resume RUN_ID: runs only the missing rollouts of an interrupted or cancelled run; a finished one is left as it is.
import { type Command, dbFlag, jsonFlag, parseFlags, UsageError } from '../command';
import { followRun } from '../follow-run';
import { withEngine } from '../open-engine';

export const resumeCommand: Command = {
  usage: 'while-desk resume RUN_ID [--db PATH] [--json]',
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { ...dbFlag, ...jsonFlag });
    if (positionals.length !== 1) throw new UsageError('give exactly one run id (see `while-desk runs`)');
    const json = Boolean(values.json);
    return withEngine(values.db, async (engine) => {
      const resumed = await engine.call('runs.resume', { id: positionals[0] });
      const say = (text: string) => (json ? io.err(text) : io.out(text));
      say(`run ${resumed.run_id}\n`);
      say(`${resumed.message}\n`);
      return followRun(engine, resumed.run_id, io, json);
    });
  },
};
