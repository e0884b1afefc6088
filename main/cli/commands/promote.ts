// while-desk promote AGENT VERSION: mark the version serving; `verdict` reads every other version against it.
import { type Command, dbFlag, jsonFlag, parseFlags, UsageError } from '../command';
import { withEngine } from '../open-engine';

export const promoteCommand: Command = {
  usage: 'while-desk promote AGENT VERSION [--db PATH] [--json]',
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { ...dbFlag, ...jsonFlag });
    if (positionals.length !== 2) throw new UsageError('give the agent and the version: while-desk promote AGENT VERSION');
    const [agent, version] = positionals;
    const done = await withEngine(values.db, (engine) => engine.call('agents.promote', { agent, version }));
    if (values.json) io.out(JSON.stringify(done) + '\n');
    else io.out(`${done.agent}: ${done.serving} is serving${done.previous && done.previous !== done.serving ? ` (was ${done.previous})` : ''}\n`);
    return 0;
  },
};
