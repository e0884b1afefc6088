// while-desk labels import FILE --dataset ID [--annotator NAME] [--kind human|program|verifier|model] [--json]
// while-desk labels export ID OUT.jsonl [--annotator NAME]
// while-desk labels ID [--json]
// A client of labels.import, labels.export and labels.summary: the engine reads and writes the files.
import path from 'node:path';
import { type Command, type CliIo, UsageError, dbFlag, jsonFlag, parseFlags } from '../command';
import { withEngine } from '../open-engine';
import { formatTable } from '../table';

const USAGE = [
  'while-desk labels import FILE --dataset ID [--annotator NAME] [--kind human|program|verifier|model] [--json] [--db PATH]',
  'while-desk labels export ID OUT.jsonl [--annotator NAME] [--db PATH]',
  'while-desk labels ID [--json] [--db PATH]',
].join('\n       ');

async function importCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags(args, { ...dbFlag, ...jsonFlag, dataset: { type: 'string' }, annotator: { type: 'string' }, kind: { type: 'string' } });
  if (positionals.length !== 1) throw new UsageError('give one label file (JSONL records or a {key: label} mapping)');
  if (!values.dataset) throw new UsageError('--dataset ID names the dataset or run the labels belong to');
  const kind = values.kind ?? 'human';
  if (!['human', 'program', 'verifier', 'model'].includes(kind)) throw new UsageError(`--kind is one of human, program, verifier, model (got "${kind}")`);
  const file = path.resolve(positionals[0]);
  const out = await withEngine(values.db, (engine) => engine.call('labels.import', { dataset_id: values.dataset as string, path: file, annotator: values.annotator, kind }));
  if (values.json) {
    io.out(JSON.stringify(out.report) + '\n');
    return 0;
  }
  const r = out.report;
  io.out(`imported ${out.stored} labels onto ${r.rows_labeled} rows of ${values.dataset} (${r.labels} in the file: ${r.matched} matched, ${r.unmatched} unmatched, ${r.invalid} invalid; ${r.ties} ties)\n`);
  for (const warning of r.warnings ?? []) io.err(`warning: ${warning}\n`);
  return 0;
}

async function exportCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags(args, { ...dbFlag, annotator: { type: 'string' } });
  if (positionals.length !== 2) throw new UsageError('give a dataset id and an output file');
  const [id, outFile] = positionals;
  const out = await withEngine(values.db, (engine) => engine.call('labels.export', { dataset_id: id, path: path.resolve(outFile), annotator: values.annotator }));
  io.out(`exported ${out.labels} labels to ${outFile}\n`);
  return 0;
}

async function summaryCommand(args: string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseFlags(args, { ...dbFlag, ...jsonFlag });
  if (positionals.length !== 1) throw new UsageError('give one dataset id');
  const summary = await withEngine(values.db, (engine) => engine.call('labels.summary', { dataset_id: positionals[0] }));
  if (values.json) {
    io.out(JSON.stringify(summary) + '\n');
    return 0;
  }
  if (summary.annotators.length === 0) {
    io.out(`no labels on ${positionals[0]} yet: \`while-desk labels import FILE --dataset ${positionals[0]}\` or the Label section adds them\n`);
    return 0;
  }
  io.out(formatTable(['ANNOTATOR', 'LABELS', 'PASS', 'FAIL'], summary.annotators.map((a) => [a.annotator, String(a.labels), String(a.pass), String(a.fail)])));
  io.out(`${summary.rows_labeled} rows labeled, ${summary.multi_labeled} by more than one annotator, ${summary.disagreements} where they disagree\n`);
  if (summary.pairs.length) {
    io.out('\n');
    io.out(formatTable(['A', 'B', 'N', 'AGREEMENT', 'KAPPA'], summary.pairs.map((p) => [p.a, p.b, String(p.n), p.agreement === null ? '-' : String(p.agreement), p.kappa === null ? '-' : String(p.kappa)])));
  }
  return 0;
}

export const labelsCommand: Command = {
  usage: USAGE,
  async run(args, io) {
    const [sub, ...rest] = args;
    if (!sub) throw new UsageError('give a subcommand (import, export) or a dataset id');
    if (sub === 'import') return importCommand(rest, io);
    if (sub === 'export') return exportCommand(rest, io);
    return summaryCommand(args, io);
  },
};
