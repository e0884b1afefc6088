// while-desk logout: forget the saved key (local only; nothing is sent).
import { type Command, dbFlag, parseFlags } from '../command';
import { withEngine } from '../open-engine';

export const logoutCommand: Command = {
  usage: 'while-desk logout [--db PATH]',
  async run(args, io) {
    const { values } = parseFlags(args, { ...dbFlag }, false);
    const { removed } = await withEngine(values.db, (engine) => engine.call('sync.logout', {}));
    io.out(removed ? 'Logged out: the saved key was removed.\n' : 'No saved key to remove.\n');
    return 0;
  },
};
