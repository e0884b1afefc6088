// while-desk status [--json] [--offline]: the account (key masked, tier, limits, usage) and the outbox.
import { type Command, dbFlag, jsonFlag, parseFlags } from '../command';
import { withEngine } from '../open-engine';

export const statusCommand: Command = {
  usage: 'while-desk status [--json] [--offline] [--db PATH]',
  async run(args, io) {
    const { values } = parseFlags(args, { ...dbFlag, ...jsonFlag, offline: { type: 'boolean', default: false } }, false);
    const status = await withEngine(values.db, (engine) => engine.call('sync.status', { online: !values.offline }));
    if (values.json) {
      io.out(JSON.stringify(status) + '\n');
      return 0;
    }
    const box = status.outbox;
    const lines = [
      `api        ${status.api_url}${status.platform_url !== status.api_url ? ` (runs: ${status.platform_url})` : ''}`,
      status.configured ? `key        ${status.key} from ${status.source === 'file' ? status.path : status.source}` : 'key        none: `while-desk login` signs in (or set WHILEAI_API_KEY)',
      ...(status.name ? [`name       ${status.name}`] : []),
      ...(status.pending ? ['pending    a sign-in waits for approval: `while-desk login` resumes it'] : []),
      ...(status.tier ? [`tier       ${status.tier}${status.trial_expires_at ? ` (trial until ${status.trial_expires_at})` : ''}`] : []),
      ...(status.limits && Object.keys(status.limits).length ? [`limits     ${JSON.stringify(status.limits)}`] : []),
      ...(status.usage && Object.keys(status.usage).length ? [`usage      ${JSON.stringify(status.usage)}`] : []),
      `auto sync  ${status.auto ? 'on' : 'off'}`,
      `outbox     ${box.queued} queued${box.blocked ? ` (${box.blocked} waiting for you)` : ''}, ${box.sending} sending, ${box.done} done, ${box.failed} failed`,
    ];
    io.out(lines.join('\n') + '\n');
    return 0;
  },
};
