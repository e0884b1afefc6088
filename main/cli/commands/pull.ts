// while-desk pull DS_ID [--name NAME]: bring a platform dataset into the local database.
import { type Command, UsageError, dbFlag, jsonFlag, parseFlags } from '../command';
import { withEngine } from '../open-engine';

export const pullCommand: Command = {
  usage: 'while-desk pull DS_ID [--name NAME] [--json] [--db PATH]',
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { ...dbFlag, ...jsonFlag, name: { type: 'string' } });
    if (positionals.length !== 1) throw new UsageError('give the platform id of the dataset to pull (ds_...)');
    const result = await withEngine(values.db, (engine) => engine.call('sync.pull', { remote_id: positionals[0], ...(values.name ? { name: values.name } : {}) }));
    if (values.json) io.out(JSON.stringify(result) + '\n');
    else io.out(`pulled ${positionals[0]} into ${result.dataset_id} (${result.rows_imported} rows)\n`);
    return result.dataset_id ? 0 : 1;
  },
};
