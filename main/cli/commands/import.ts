// while-desk import FILE.jsonl [--dataset NAME] [--skip-invalid] [--db PATH] [--json]
import path from 'node:path';
import { type Command, UsageError, dbFlag, jsonFlag, parseFlags } from '../command';
import { warmUpImport } from '../../engine/index';

export const importCommand: Command = {
  usage: 'while-desk import FILE.jsonl [--dataset NAME] [--skip-invalid] [--db PATH] [--json]',
  async run(args, io) {
    const { values, positionals } = parseFlags(args, {
      ...dbFlag,
      ...jsonFlag,
      dataset: { type: 'string' },
      'skip-invalid': { type: 'boolean', default: false },
    });
    if (positionals.length !== 1) throw new UsageError('give exactly one file to import');
    const file = positionals[0];
    // The parse workers start reading the file while the engine loads and opens the database.
    await warmUpImport(path.resolve(file));
    const [{ withEngine }, { importFile }] = await Promise.all([import('../open-engine'), import('../import-file')]);
    const result = await withEngine(values.db, (engine) =>
      importFile(engine, file, {
        name: values.dataset ?? path.basename(file).replace(/\.jsonl?$/i, ''),
        skipInvalid: values['skip-invalid'] ?? false,
        onProgress: io.isTty && !values.json ? (p) => io.err(`\r${p.lines_read} lines read, ${p.rows_imported} rows`) : undefined,
      }),
    );
    if (values.json) {
      io.out(JSON.stringify(result) + '\n');
    } else {
      for (const error of result.errors) io.err(`${file}:${error.line}: ${error.message}\n`);
      if (result.dataset_id) {
        io.out(`imported ${result.rows_imported} rows into dataset ${result.dataset_id}` + (result.rows_skipped ? ` (${result.rows_skipped} bad lines skipped)` : '') + '\n');
      } else {
        io.err(`refused ${file}: ${result.rows_skipped} bad line${result.rows_skipped === 1 ? '' : 's'}; nothing was imported` + (result.errors.length && result.errors[0].line > 0 ? ' (use --skip-invalid to import the good lines)' : '') + '\n');
      }
    }
    return result.dataset_id ? 0 : 1;
  },
};
