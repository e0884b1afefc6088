// while-desk outbox [--json]: every sync item with its state (queued, sending, done, failed) and why.
import { type Command, dbFlag, jsonFlag, parseFlags } from '../command';
import { withEngine } from '../open-engine';
import { formatTable } from '../table';

export const outboxCommand: Command = {
  usage: 'while-desk outbox [--json] [--db PATH]',
  async run(args, io) {
    const { values } = parseFlags(args, { ...dbFlag, ...jsonFlag }, false);
    const items = await withEngine(values.db, (engine) => engine.call('sync.outbox', {}));
    if (values.json) {
      io.out(JSON.stringify(items) + '\n');
      return 0;
    }
    if (items.length === 0) {
      io.out('the outbox is empty: `while-desk push ID --name NAME` sends a dataset\n');
      return 0;
    }
    const state = (item: (typeof items)[number]) => {
      if (item.blocked) return `queued (${item.blocked === 'sign_in' ? 'sign in again' : 'billing'})`;
      if (item.state === 'queued' && item.next_try_at) return `queued (next try ${new Date(item.next_try_at).toLocaleTimeString('en-GB', { hour12: false })})`;
      return item.state;
    };
    const lines = items.map((item) => [String(item.id), state(item), String(item.attempts), item.summary, item.state === 'done' ? String(item.result?.datasetId ?? '') : (item.last_error ?? '')]);
    io.out(formatTable(['ID', 'STATE', 'TRIES', 'WHAT', 'RESULT / WHY'], lines));
    const failed = items.filter((item) => item.state === 'failed').map((item) => item.id);
    if (failed.length) io.err(`\`while-desk sync --retry ${failed.join(',')}\` tries the failed item(s) again\n`);
    return 0;
  },
};
