// while-desk login [--name NAME] [--no-wait] [--timeout S]: the device sign-in (platform-api §2.4).
// Exit 0 when signed in (or --no-wait), 2 while the code still waits for approval, 1 on an error.
import { type Command, dbFlag, parseFlags, numberFlag } from '../command';
import { withEngine } from '../open-engine';

export const loginCommand: Command = {
  usage: 'while-desk login [--name NAME] [--no-wait] [--timeout SECONDS] [--db PATH]',
  async run(args, io) {
    const { values } = parseFlags(args, { ...dbFlag, name: { type: 'string' }, 'no-wait': { type: 'boolean', default: false }, timeout: { type: 'string' }, 'no-browser': { type: 'boolean', default: false } }, false);
    const timeout = values.timeout === undefined ? undefined : numberFlag(values.timeout, 'timeout', 0);
    return withEngine(values.db, async (engine) => {
      const begun = await engine.call('sync.loginBegin', values.name ? { name: values.name } : {});
      io.out(begun.resumed ? 'Resuming the login you started. Open this link and press Approve:\n' : 'Open this link and press Approve:\n');
      io.out(`  ${begun.verification_uri_complete ?? '(the platform gave no link)'}\n  code: ${begun.user_code}\n`);
      if (values['no-wait']) return 0;
      const deadline = Math.min(begun.expires_at, timeout !== undefined ? Date.now() / 1000 + timeout : Infinity);
      for (;;) {
        const left = Math.max(0, deadline - Date.now() / 1000);
        const polled = await engine.call('sync.loginPoll', { wait_s: Math.min(900, left) });
        if (polled.state === 'approved') {
          io.out(`${polled.message}\n`);
          return 0;
        }
        if (polled.state === 'none' || Date.now() / 1000 >= deadline) {
          io.out(`${polled.message}\n`);
          return 2;
        }
      }
    });
  },
};
