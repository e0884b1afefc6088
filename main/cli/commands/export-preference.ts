// while-desk export-preference DATASET OUT.jsonl [--format openai|trl]: same-prompt pass/fail pairs
// (build_preference_pairs) written as DPO rows (export_preference). --json prints export_preference's report.
import path from 'node:path';
import { type Command, UsageError, dbFlag, jsonFlag, parseFlags } from '../command';
import { withEngine } from '../open-engine';
import { oneOf } from './export-training';

export const exportPreferenceCommand: Command = {
  usage: 'while-desk export-preference DATASET OUT.jsonl [--format openai|trl] [--json] [--db PATH]',
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { ...dbFlag, ...jsonFlag, format: { type: 'string' } });
    if (positionals.length !== 2) throw new UsageError('give a dataset id and an output file (see `while-desk datasets`)');
    const [datasetId, outFile] = positionals;
    if (!outFile.endsWith('.jsonl')) throw new UsageError(`the output file is JSONL: name it *.jsonl (got "${outFile}")`);
    const format = oneOf(values.format, 'format', ['openai', 'trl'] as const, 'openai');
    const result = await withEngine(values.db, (engine) => engine.call('training.exportPreference', { dataset_id: datasetId, format, path: path.resolve(outFile) }));
    if (values.json) {
      io.out(`${JSON.stringify(result.report)}\n`);
      return 0;
    }
    const r = result.report;
    io.out(`wrote ${r.pairs} ${format} preference pairs to ${outFile} (${result.bytes} bytes; ${result.pairs_report.prompts_with_contrast} of ${result.pairs_report.prompts_seen} prompts had a pass and a fail)\n`);
    if (r.trl_turns_cut) io.out(`note: ${r.trl_turns_cut} pair(s) lost later turns: each side is the one assistant turn where the two differ\n`);
    for (const warning of (r.warnings as string[] | undefined) ?? []) io.out(`note: ${warning}\n`);
    return 0;
  },
};
