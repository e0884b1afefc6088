// while-desk sync [--retry-failed] [--json]: send everything queued in the outbox now.
// Exit 0 when nothing is left to send; 1 while items remain failed or waiting (a sign-in, billing, a retry).
import type { DrainResultView } from '../../../shared/api/sync';
import { type CliIo, type Command, dbFlag, jsonFlag, parseFlags } from '../command';
import { withEngine } from '../open-engine';

export function printDrain(result: DrainResultView, io: CliIo): void {
  const box = result.outbox;
  io.out(`sent ${result.done} of ${result.attempted}; outbox: ${box.queued} queued, ${box.failed} failed, ${box.done} done\n`);
  if (result.blocked) io.err(`${result.blocked.message}\n`);
  else if (box.failed > 0) io.err('some items failed: `while-desk outbox` says why; `while-desk sync --retry-failed` tries them again\n');
  else if (box.queued > 0) io.err('some items wait to be retried: `while-desk outbox` says why; `while-desk sync` tries them again\n');
}

export const syncCommand: Command = {
  usage: 'while-desk sync [--retry-failed] [--json] [--db PATH]',
  async run(args, io) {
    const { values } = parseFlags(args, { ...dbFlag, ...jsonFlag, 'retry-failed': { type: 'boolean', default: false } }, false);
    const result = await withEngine(values.db, (engine) => engine.call('sync.now', { retry_failed: values['retry-failed'] }));
    if (values.json) io.out(JSON.stringify(result) + '\n');
    else printDrain(result, io);
    return result.outbox.failed > 0 || result.outbox.queued > 0 || result.outbox.sending > 0 ? 1 : 0;
  },
};
