// Conformance invokers for the training export (sdk-semantics §8.3), under the SDK's names and keyword names. Every
// result is {rows, report} where the SDK returns rows and a report (the file's rows for the exporters), {rows} for
// the functions that return only rows, and the report itself for tool_call_roundtrip.
import {
  buildPreferencePairs,
  exportDatasetRows,
  exportPreferenceRows,
  optimizeRows,
  RoundtripCheck,
  rowTurns,
  selectForRlRows,
  selectForSftRows,
  toTrl,
  TrainingValueError,
  lossMask,
  type ExportFormat,
  type MaskMode,
  type TrlKind,
} from '../../shared/training/index';
import type { CaseInvoker } from './types';

type Kw = Record<string, unknown>;
type Obj = Record<string, unknown>;

function bind(names: string[], call: { args: unknown[]; kwargs: Kw }): Kw {
  if (call.args.length > names.length) throw new Error(`too many positional arguments (${call.args.length}) for (${names.join(', ')})`);
  const out: Kw = {};
  call.args.forEach((value, i) => {
    out[names[i]] = value;
  });
  return { ...out, ...call.kwargs };
}

function rowsOf(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new TrainingValueError(`${what} must be a list of rows`);
  return value;
}

const opt = <T>(value: unknown): T | undefined => (value === null || value === undefined ? undefined : (value as T));

function exportSettingsOf(kw: Kw): Kw {
  return {
    format: opt(kw.format),
    mask_mode: opt(kw.mask_mode),
    unroll: opt(kw.unroll),
    max_tool_output_chars: kw.max_tool_output_chars ?? null,
    strip_think: opt(kw.strip_think),
    system_prompt: opt(kw.system_prompt),
    tools: opt(kw.tools),
    validate: opt(kw.validate),
  };
}

/** The report's path and n_written, as write_jsonl would fill them when an output is named. */
function written(report: Obj, output: unknown, n: number): Obj {
  return typeof output === 'string' && output ? { ...report, path: output, n_written: n } : report;
}

const exportDataset: CaseInvoker = async (call) => {
  const kw = bind(['source', 'output'], call);
  const { rows, report } = exportDatasetRows(rowsOf(kw.source, 'source'), exportSettingsOf(kw));
  return { result: { rows, report: written(report as unknown as Obj, kw.output, rows.length) } };
};

export const trainingFunctions: Record<string, CaseInvoker> = {
  export_dataset: exportDataset,
  export_training: exportDataset,
  training_rows: async (call) => {
    const kw = bind(['source'], call);
    const { rows } = exportDatasetRows(rowsOf(kw.source, 'source'), { ...exportSettingsOf(kw), format: 'openai', validate: false });
    return { result: { rows } };
  },
  to_trl: async (call) => {
    const kw = bind(['rows', 'kind'], call);
    const kind = (kw.kind ?? 'training') as TrlKind;
    if (!['training', 'completion', 'preference'].includes(kind)) throw new TrainingValueError(`kind must be one of training, completion, preference, got ${JSON.stringify(kind)}`);
    return { result: { rows: toTrl(rowsOf(kw.rows, 'rows'), kind) } };
  },
  tool_call_roundtrip: async (call) => {
    const kw = bind(['rows'], call);
    const format = (kw.format ?? 'openai') as ExportFormat;
    if (format !== 'openai' && format !== 'trl') throw new TrainingValueError(`format must be one of openai, trl, got ${JSON.stringify(format)}`);
    const check = new RoundtripCheck(format);
    for (const row of rowsOf(kw.rows, 'rows')) check.add(rowTurns(row as Obj));
    return { result: check.report() };
  },
  loss_mask: async (call) => {
    const kw = bind(['messages'], call);
    const mode = (kw.mode ?? 'assistant') as MaskMode;
    if (mode !== 'assistant' && mode !== 'final') throw new TrainingValueError(`mask_mode must be one of assistant, final, got ${JSON.stringify(mode)}`);
    return { result: lossMask(rowsOf(kw.messages, 'messages').map((m) => (m && typeof m === 'object' ? (m as Obj) : {})), mode) };
  },
  export_preference: async (call) => {
    const kw = bind(['pairs', 'output'], call);
    const { rows, report } = exportPreferenceRows(rowsOf(kw.pairs, 'pairs'), {
      format: opt(kw.format),
      system_prompt: opt(kw.system_prompt),
      tools: opt(kw.tools),
      strip_think: opt(kw.strip_think),
      validate: opt(kw.validate),
      drop_ties: opt(kw.drop_ties),
    });
    const withPath = typeof kw.output === 'string' && kw.output && rows.length ? { ...report, path: kw.output } : report;
    return { result: { rows, report: withPath } };
  },
  build_preference_pairs: async (call) => {
    const kw = bind(['rows'], call);
    const { pairs, report } = buildPreferencePairs(rowsOf(kw.rows, 'rows'), {
      max_pairs_per_prompt: opt(kw.max_pairs_per_prompt),
      min_margin: opt(kw.min_margin),
      length_match: opt(kw.length_match),
    });
    return { result: { rows: pairs, report } };
  },
  select_for_sft: async (call) => {
    const kw = bind(['rows'], call);
    return { result: selectForSftRows(rowsOf(kw.rows, 'rows'), { target: opt(kw.target), select: opt(kw.select), k: opt(kw.k), min_reward: opt(kw.min_reward), seed: opt(kw.seed) }) };
  },
  select_for_rl: async (call) => {
    const kw = bind(['rows'], call);
    return {
      result: selectForRlRows(rowsOf(kw.rows, 'rows'), {
        target: opt(kw.target), lo: opt(kw.lo), hi: opt(kw.hi), enforce_band: opt(kw.enforce_band), has_tools: opt(kw.has_tools), dedupe: opt(kw.dedupe),
        drop_truncated: opt(kw.drop_truncated), truncated: opt(kw.truncated), order: opt(kw.order), text_gates: opt(kw.text_gates),
      }),
    };
  },
  optimize: async (call) => {
    const kw = bind(['source'], call);
    return {
      result: optimizeRows(rowsOf(kw.source, 'source'), {
        mode: opt(kw.mode), target: opt(kw.target), band: opt(kw.band), enforce_band: opt(kw.enforce_band), select: opt(kw.select),
        min_reward: opt(kw.min_reward), seed: opt(kw.seed), truncated: opt(kw.truncated), order: opt(kw.order),
      }),
    };
  },
};
