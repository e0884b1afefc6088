// while-desk delete DATASET_ID [--with-copies] [--json] [--db PATH]: a client of datasets.delete.
import { ApiError } from '../../../shared/api/define';
import { type Command, UsageError, dbFlag, jsonFlag, parseFlags } from '../command';
import { withEngine } from '../open-engine';

export const deleteCommand: Command = {
  usage: 'while-desk delete DATASET_ID [--with-copies] [--json] [--db PATH]',
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { ...dbFlag, ...jsonFlag, 'with-copies': { type: 'boolean', default: false } });
    if (positionals.length !== 1) throw new UsageError('give one dataset or run id (see `while-desk datasets`)');
    const [id] = positionals;
    const result = await withEngine(values.db, (engine) => engine.call('datasets.delete', { id, with_copies: values['with-copies'] }));
    if (!result.deleted) throw new ApiError('not_found', `no dataset or run with id "${id}" (see \`while-desk datasets\`)`, id);
    if (values.json) io.out(`${JSON.stringify(result)}\n`);
    else io.out(`deleted ${result.deleted_ids.join(', ')}\n`);
    return 0;
  },
};
