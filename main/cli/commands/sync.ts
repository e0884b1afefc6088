// while-desk sync [--retry-failed] [--retry ID ...] [--wait S] [--json]: send everything queued in the outbox now.
// Exit 0 only when the outbox is drained; 1 while items remain failed or waiting (a sign-in, billing, a back-off).
import type { DrainResultView } from '../../../shared/api/sync';
import { type CliIo, type Command, UsageError, dbFlag, jsonFlag, numberFlag, parseFlags } from '../command';
import { withEngine } from '../open-engine';

/** "14:03:12 (in 40 s)": when a back-off comes due, in the terminal's local time. */
function when(iso: string): string {
  const at = new Date(iso);
  const inS = Math.max(0, Math.round((at.getTime() - Date.now()) / 1000));
  return `${at.toLocaleTimeString('en-GB', { hour12: false })} (in ${inS} s)`;
}

export function printDrain(result: DrainResultView, io: CliIo): void {
  const box = result.outbox;
  io.out(`sent ${result.done} of ${result.attempted}; outbox: ${box.queued} queued, ${box.failed} failed, ${box.done} done\n`);
  if (result.blocked) io.err(`${result.blocked.message}\n`);
  else if (box.failed > 0) io.err('some items failed: `while-desk outbox` says why; `while-desk sync --retry ID` (or --retry-failed) tries them again\n');
  if (!result.blocked && result.next_try_at) {
    io.err(`${box.queued - box.blocked} item(s) wait on a back-off; the next try is at ${when(result.next_try_at)}: \`while-desk sync --wait 120\` keeps trying\n`);
  } else if (!result.blocked && box.queued > 0) io.err('some items wait to be sent: `while-desk outbox` says why; `while-desk sync` tries them again\n');
}

/** `--retry 3 --retry 7` or `--retry 3,7`: outbox item ids. */
function retryIds(values: string[] | undefined): number[] {
  return (values ?? []).flatMap((value) =>
    value.split(',').map((part) => {
      const id = Number(part.trim());
      if (!Number.isInteger(id) || id <= 0) throw new UsageError(`--retry takes outbox item ids, as \`while-desk outbox\` lists them (got "${part}")`);
      return id;
    }),
  );
}

export const syncCommand: Command = {
  usage: 'while-desk sync [--retry-failed] [--retry ID ...] [--wait SECONDS] [--json] [--db PATH]',
  async run(args, io) {
    const { values } = parseFlags(
      args,
      { ...dbFlag, ...jsonFlag, 'retry-failed': { type: 'boolean', default: false }, retry: { type: 'string', multiple: true }, wait: { type: 'string' } },
      false,
    );
    const waitS = numberFlag(values.wait, 'wait', 0);
    if (waitS < 0 || waitS > 86_400) throw new UsageError(`--wait is a number of seconds from 0 to 86400 (got ${values.wait})`);
    const input = { retry_failed: values['retry-failed'], retry: retryIds(values.retry), wait_s: waitS };
    const result = await withEngine(values.db, (engine) => engine.call('sync.now', input));
    if (values.json) io.out(JSON.stringify(result) + '\n');
    else printDrain(result, io);
    return result.outbox.failed > 0 || result.outbox.queued > 0 || result.outbox.sending > 0 ? 1 : 0;
  },
};
