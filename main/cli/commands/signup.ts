// while-desk signup EMAIL [--name NAME]: a trial account; its key is saved as a login's is.
import { type Command, UsageError, dbFlag, parseFlags } from '../command';
import { withEngine } from '../open-engine';

export const signupCommand: Command = {
  usage: 'while-desk signup EMAIL [--name KEY_NAME] [--db PATH]',
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { ...dbFlag, name: { type: 'string' } });
    if (positionals.length !== 1) throw new UsageError('give the email address to sign up with');
    const result = await withEngine(values.db, (engine) => engine.call('sync.signup', { email: positionals[0], ...(values.name ? { name: values.name } : {}) }));
    io.out(`Signed up${result.tier ? ` (${result.tier})` : ''}. Key saved to ${result.path}\n`);
    return 0;
  },
};
