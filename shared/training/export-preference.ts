// export_preference (sdk-semantics §8.3, newest behaviour): each chosen/rejected pair as a DPO row. OpenAI shape: the
// ask as `prompt` and both whole conversations in wire form. TRL shape: the prefix both share as `prompt`, the one
// diverging assistant turn per side, later turns cut (trl_turns_cut). Ties are dropped; no pairs is an error.
import { conversation } from '../schema/conversation';
import { pyNumber } from '../schema/py-json';
import { pyTruthy } from '../stats/keys';
import { pyRound } from '../stats/py-format';
import { TrainingValueError } from './export-settings';
import { firstTurnNote, lengthConfoundWarning } from './preference-pairs';
import { RoundtripCheck, type ExportFormat } from './roundtrip';
import { trlPreferenceRow } from './trl';
import { convertMessages } from './wire';

type Obj = Record<string, unknown>;

const PAIR_KEYS = [
  'tie', 'pairwise', 'first_turn_differs', 'chosen_score', 'rejected_score', 'margin', 'chosen_model', 'rejected_model', 'same_policy',
  'length_delta', 'chosen_reason', 'rejected_reason', 'rejected_failure_class', 'lineage',
] as const;

export interface PreferenceSettings {
  format: ExportFormat;
  system_prompt: string;
  tools: unknown[];
  strip_think: boolean;
  validate: boolean;
  drop_ties: boolean;
}

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Number);

function sideMessages(row: Obj): unknown {
  return pyTruthy(row.messages) ? row.messages : conversation(row);
}

export function exportPreferenceRows(pairs: readonly unknown[], input: Partial<PreferenceSettings> = {}): { rows: Obj[]; report: Obj } {
  const s: PreferenceSettings = { format: 'openai', system_prompt: '', tools: [], strip_think: true, validate: true, drop_ties: true, ...Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) };
  if (s.format !== 'openai' && s.format !== 'trl') throw new TrainingValueError(`format must be one of openai, trl, got ${JSON.stringify(s.format)}`);
  const entries = pairs.filter(isObj);
  const notPairs = entries.filter((p) => !(isObj(p.chosen) && isObj(p.rejected))).length;
  if (notPairs) {
    throw new TrainingValueError(`export_preference takes chosen/rejected pairs, and ${notPairs} of ${entries.length} entries have no chosen/rejected side. Build the pairs first (build_preference_pairs).`);
  }
  let rows: Obj[] = [];
  let tiesDropped = 0;
  for (const pair of entries) {
    if (s.drop_ties && pyTruthy(pair.tie)) {
      tiesDropped++;
      continue;
    }
    const entry: Obj = { prompt: pair.prompt ?? null };
    for (const side of ['chosen', 'rejected'] as const) {
      entry[side] = convertMessages(sideMessages(pair[side] as Obj), { system: s.system_prompt, stripThink: s.strip_think, maxToolOutputChars: null });
    }
    if (s.tools.length) entry.tools = s.tools.slice();
    for (const key of PAIR_KEYS) if (pair[key] !== null && pair[key] !== undefined) entry[key] = pair[key];
    if (!('schema_version' in entry)) entry.schema_version = '1';
    rows.push(entry);
  }
  let noCompletion = 0;
  let turnsCut = 0;
  if (s.format === 'trl') {
    const shaped: Obj[] = [];
    for (const row of rows) {
      const out = trlPreferenceRow(row);
      if (!out) continue;
      if (out.cut) turnsCut++;
      shaped.push(out.row);
    }
    noCompletion = rows.length - shaped.length;
    rows = shaped;
  }
  rows.forEach((row, i) => {
    const problems = (['chosen', 'rejected'] as const).filter((side) => !Array.isArray(row[side]) || !(row[side] as unknown[]).length);
    if (problems.length) throw new TrainingValueError(`schema_invalid in export_preference: ${i}:${problems.map((p) => `${p}_missing`).join(',')}`);
  });
  const roundtrip = new RoundtripCheck(s.format);
  for (const row of rows) for (const side of ['chosen', 'rejected'] as const) roundtrip.add(row[side] as unknown[]);
  const checked = roundtrip.report();
  if (s.validate && checked.invalid) {
    throw new TrainingValueError(`tool_call_roundtrip_invalid: ${checked.invalid} of ${checked.checked} tool calls in the pairs do not parse back to structured arguments. Fix the rows or pass validate=False.`);
  }
  const report: Obj = { pairs: rows.length, format: s.format, tool_call_roundtrip: checked };
  if (turnsCut) report.trl_turns_cut = turnsCut;
  if (tiesDropped) report.ties_dropped = tiesDropped;
  if (noCompletion) report.no_completion_dropped = noCompletion;
  const deltas = rows.map((r) => r.length_delta).filter((d): d is number => typeof d === 'number' && Number.isInteger(d));
  if (deltas.length) {
    const longer = deltas.filter((d) => d > 0).length;
    report.chosen_longer_frac = pyRound(longer / deltas.length, 3);
    const note = lengthConfoundWarning(longer, deltas.length);
    if (note) report.warnings = [note];
  }
  const identical = rows.filter((r) => r.first_turn_differs === false).length;
  if (identical) {
    report.first_turn_identical = identical;
    report.warnings = [...((report.warnings as string[] | undefined) ?? []), firstTurnNote(identical, rows.length)];
  }
  const margins = rows.map((r) => pyNumber(r.margin)).filter((m): m is number => m !== null);
  if (margins.length) report.mean_margin = pyRound(margins.reduce((a, b) => a + b, 0) / margins.length, 4);
  if (!rows.length) {
    if (s.validate) {
      throw new TrainingValueError('no_preference_pairs: nothing had a chosen and a rejected side. All-pass or all-fail runs produce no contrast; regrade or raise difficulty, or pass validate=False to get the empty report without a file.');
    }
    report.path = null;
  }
  return { rows, report };
}
