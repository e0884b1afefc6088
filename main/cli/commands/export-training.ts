// while-desk export-training DATASET OUT.jsonl [...]: a client of training.export (the engine selects, converts and
// streams the file; an empty selection or a refused row writes nothing). --json prints export_dataset's report.
import path from 'node:path';
import { TRAINING_SELECTIONS, type TrainingSettingsInput } from '../../../shared/api/training';
import { type Command, UsageError, dbFlag, intFlag, jsonFlag, numberFlag, parseFlags } from '../command';
import { withEngine } from '../open-engine';

const USAGE =
  'while-desk export-training DATASET OUT.jsonl [--format openai|trl] [--mask-mode assistant|final] [--unroll] [--max-tool-output-chars N] ' +
  `[--select ${TRAINING_SELECTIONS.join('|')}] [--min-reward X] [--decontaminate-against DS,...] [--json] [--db PATH]`;

export function oneOf<T extends string>(value: string | undefined, flag: string, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${flag} must be one of ${allowed.join(', ')} (got "${value}")`);
  return value as T;
}

export const exportTrainingCommand: Command = {
  usage: USAGE,
  async run(args, io) {
    const { values, positionals } = parseFlags(args, {
      ...dbFlag,
      ...jsonFlag,
      format: { type: 'string' },
      'mask-mode': { type: 'string' },
      unroll: { type: 'boolean', default: false },
      'max-tool-output-chars': { type: 'string' },
      select: { type: 'string' },
      'min-reward': { type: 'string' },
      'decontaminate-against': { type: 'string' },
    });
    if (positionals.length !== 2) throw new UsageError('give a dataset id and an output file (see `while-desk datasets`)');
    const [datasetId, outFile] = positionals;
    if (!outFile.endsWith('.jsonl')) throw new UsageError(`the output file is JSONL: name it *.jsonl (got "${outFile}")`);
    const against = values['decontaminate-against'];
    const evalIds = against === undefined ? [] : against.split(',').map((s) => s.trim());
    if (evalIds.some((id) => id === '')) throw new UsageError('--decontaminate-against takes dataset ids separated by commas, with none empty');
    const settings: TrainingSettingsInput = {
      format: oneOf(values.format, 'format', ['openai', 'trl'] as const, 'openai'),
      mask_mode: oneOf(values['mask-mode'], 'mask-mode', ['assistant', 'final'] as const, 'assistant'),
      unroll: values.unroll,
      max_tool_output_chars: values['max-tool-output-chars'] === undefined ? null : intFlag(values['max-tool-output-chars'], 'max-tool-output-chars', 0, 0),
      select: oneOf(values.select, 'select', TRAINING_SELECTIONS, 'all'),
      min_reward: values['min-reward'] === undefined ? null : numberFlag(values['min-reward'], 'min-reward', 0),
      decontaminate_against: evalIds,
    };
    const result = await withEngine(values.db, (engine) => engine.call('training.export', { dataset_id: datasetId, settings, path: path.resolve(outFile) }));
    if (values.json) {
      io.out(`${JSON.stringify(result.report)}\n`);
      return 0;
    }
    for (const stage of result.stages) io.out(`${stage.stage.padEnd(14)} ${String(stage.rows_in).padStart(8)} -> ${String(stage.rows_out).padEnd(8)}\n`);
    const c = result.counts;
    const cut = c.tool_output_truncated ? `, ${c.tool_output_truncated} tool outputs cut (${c.tool_output_chars_cut} chars, about ${c.tool_output_tokens_cut} tokens)` : '';
    io.out(`wrote ${c.rows_written} ${settings.format} rows to ${outFile} (${result.bytes} bytes, mask ${String(result.report.mask_mode).split(' (')[0].slice(0, 60)})${cut}\n`);
    for (const warning of (result.report.warnings as string[] | undefined) ?? []) io.out(`note: ${warning}\n`);
    return 0;
  },
};
