// while-desk push ID --name NAME [--purpose P] [--agent NAME] [--parent DS_ID] [--holdout F] [--endorsed a,b] [--strict-hacks] [--no-gate] [--json]
// Gates and splits locally, queues the push in the outbox and sends it now. Exit 0 when the platform confirmed it.
// With --results: the graded rows go as a tracked run of --agent at --version instead (score, rows, examples).
import { type CliIo, type Command, UsageError, dbFlag, jsonFlag, numberFlag, parseFlags } from '../command';
import { withEngine } from '../open-engine';
import { printDrain } from './sync';

const PURPOSES = ['train', 'holdout', 'eval'] as const;
const MODES = ['explore', 'sft', 'rl', 'adaptive'] as const;

export const pushCommand: Command = {
  usage:
    'while-desk push DATASET_ID --name NAME [--purpose train|holdout|eval] [--mode explore|sft|rl|adaptive] [--agent NAME] [--parent DS_ID] [--holdout 0.2] [--endorsed A,B] [--strict-hacks] [--no-gate] [--queue-only] [--json] [--db PATH]\n' +
    '       while-desk push DATASET_ID --results --agent NAME --version V [--behavior NAME] [--test-version T] [--queue-only] [--json]',
  async run(args, io) {
    const { values, positionals } = parseFlags(args, {
      ...dbFlag,
      ...jsonFlag,
      name: { type: 'string' },
      purpose: { type: 'string' },
      mode: { type: 'string' },
      agent: { type: 'string' },
      parent: { type: 'string' },
      description: { type: 'string' },
      holdout: { type: 'string' },
      'no-gate': { type: 'boolean', default: false },
      endorsed: { type: 'string' },
      'strict-hacks': { type: 'boolean', default: false },
      'queue-only': { type: 'boolean', default: false },
      results: { type: 'boolean', default: false },
      version: { type: 'string' },
      behavior: { type: 'string' },
      'test-version': { type: 'string' },
    });
    if (positionals.length !== 1) throw new UsageError('give the id of the dataset or run to push');
    if (values.results) return pushResults(positionals[0], values, io);
    if (!values.name) throw new UsageError('--name NAME is required (the name the dataset gets on the platform)');
    const purpose = values.purpose as (typeof PURPOSES)[number] | undefined;
    if (purpose && !PURPOSES.includes(purpose)) throw new UsageError(`--purpose is one of ${PURPOSES.join(', ')} (got "${values.purpose}")`);
    const mode = values.mode as (typeof MODES)[number] | undefined;
    if (mode && !MODES.includes(mode)) throw new UsageError(`--mode is one of ${MODES.join(', ')} (got "${values.mode}")`);
    const holdout = values.holdout === undefined ? undefined : numberFlag(values.holdout, 'holdout', 0);
    if (holdout !== undefined && !(holdout > 0 && holdout < 1)) throw new UsageError(`--holdout is a fraction between 0 and 1 (got ${values.holdout})`);
    const endorsed = values.endorsed === undefined ? undefined : values.endorsed.split(',').map((part) => part.trim()).filter(Boolean);
    if (endorsed && endorsed.length === 0) throw new UsageError('--endorsed names what the reward should track: feature names or parts of them, comma-separated (tool:lookup_order,marker:grounded)');
    if (values['strict-hacks'] && values['no-gate']) throw new UsageError('--strict-hacks is a rule of the publish gate; it cannot go with --no-gate');
    const result = await withEngine(values.db, (engine) =>
      engine.call('sync.push', {
        dataset_id: positionals[0],
        name: values.name!,
        ...(purpose ? { purpose } : {}),
        ...(mode ? { mode } : {}),
        ...(values.agent ? { agent: values.agent } : {}),
        ...(values.parent ? { parent: values.parent } : {}),
        ...(values.description ? { description: values.description } : {}),
        ...(holdout !== undefined ? { holdout } : {}),
        gate: !values['no-gate'],
        ...(endorsed ? { endorsed } : {}),
        strict_hacks: values['strict-hacks'],
        send: !values['queue-only'],
      }),
    );
    if (values.json) io.out(JSON.stringify(result) + '\n');
    const item = result.item;
    if (!values.json) {
      if (item.state === 'done') {
        const entry = item.result ?? {};
        const holdoutEntry = entry.holdout as Record<string, unknown> | undefined;
        io.out(`pushed ${item.dataset_id} as ${String(entry.datasetId)} (${String(entry.rows ?? result.rows)} rows)${holdoutEntry ? `, holdout ${String(holdoutEntry.datasetId)} (${String(holdoutEntry.rows)} rows, ${result.holdout_tasks} tasks)` : ''}\n`);
      } else if (result.sent) {
        if (item.last_error) io.err(`${item.last_error}\n`);
        printDrain(result.sent, io);
      } else io.out(`queued as outbox item ${item.id}: \`while-desk sync\` sends it\n`);
    }
    return item.state === 'done' || values['queue-only'] ? 0 : 1;
  },
};

async function pushResults(id: string, values: { db?: string; json: boolean; agent?: string; version?: string; behavior?: string; 'test-version'?: string; 'queue-only': boolean }, io: CliIo): Promise<number> {
  if (!values.agent || !values.version) throw new UsageError('--results needs --agent NAME and --version V');
  const result = await withEngine(values.db, (engine) =>
    engine.call('sync.pushResults', {
      dataset_id: id,
      agent: values.agent!,
      version: values.version!,
      ...(values.behavior ? { behavior: values.behavior } : {}),
      ...(values['test-version'] ? { test_version: values['test-version'] } : {}),
      send: !values['queue-only'],
    }),
  );
  if (values.json) io.out(JSON.stringify(result) + '\n');
  else if (result.item.state === 'done') io.out(`posted ${id} as run ${String(result.item.result?.run_id)} of ${values.agent} ${values.version}: ${result.score.score} ± ${result.score.ci} on ${result.score.n} tasks, ${String(result.item.result?.rows)} rows\n`);
  else if (result.sent) printDrain(result.sent, io);
  else io.out(`queued as outbox item ${result.item.id}: \`while-desk sync\` sends it\n`);
  return result.item.state === 'done' || values['queue-only'] ? 0 : 1;
}
