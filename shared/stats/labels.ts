// attach_labels: hand labels onto rows, majority gold and gold kind (stats-semantics §12.3, sdk-semantics §6).
import { StatsValueError } from './errors';
import { isObject, promptHashKey, pyStr, pyTruthy, rowKey, type Row } from './keys';
import { agreementLabel } from './readers';
import { canonicalKind, GOLD_KINDS, GOLD_KIND_KEY, goldKindOf } from './agreement';

export const GOLD_KEY = 'gold_reward';
export const LABELS_KEY = 'gold_labels';
/** SHOWN_KEYS = 3: offending keys an error or warning spells out. */
const SHOWN_KEYS = 3;

export interface AttachLabelsOptions {
  annotator?: string | null;
  kind?: string;
  replace?: boolean;
  /** The call time in epoch seconds (defaults to now); stamped on labels that carry no `ts`. */
  now?: number;
}

export interface AttachLabelsReport {
  labels: number;
  matched: number;
  unmatched: number;
  unmatched_keys: string[];
  invalid: number;
  rows_labeled: number;
  ties: number;
  annotators: string[];
  warnings?: string[];
}

const has = (o: Row, k: string) => Object.prototype.hasOwnProperty.call(o, k);
const repr = (s: string) => (s.includes("'") && !s.includes('"') ? `"${s}"` : `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`);
const reprKey = (k: string | null) => (k === null ? 'None' : repr(k));
const kindList = GOLD_KINDS.join(', ');

/** The label records: a list of objects (anything else raises) or a {key: label} map. */
function loadLabels(labels: unknown): Row[] {
  if (Array.isArray(labels)) {
    const stray = labels.find((x) => !isObject(x));
    if (stray !== undefined) {
      throw new StatsValueError(
        `attach_labels(labels=[...]): ${JSON.stringify(stray)} is not a label record; labels is a list of objects (each with 'label' and a row identity: 'key', 'rollout_id', 'scenario_id' + 'rollout_index', or 'prompt'), or a {key: label} mapping. A bare 0/1 list cannot say which row each label belongs to.`,
      );
    }
    return labels as Row[];
  }
  if (isObject(labels)) return Object.entries(labels).map(([key, label]) => ({ key, label }));
  throw new StatsValueError('attach_labels: labels must be a list of label objects or a {key: label} mapping.');
}

/** A prompt hash key: the first 16 hex digits of a SHA-1 (promptHashKey). No other key of this form can equal one. */
const PROMPT_HASH_FORM = /^[0-9a-f]{16}$/;

/**
 * Every identity a label may use, to the rows carrying it (a key several rows share is kept as a list). A row's
 * prompt hash is indexed only when some label's key could be one (`withPromptHashes`): hashing every row's prompt
 * and reply was a third of a label import on 100k rows, and a key of any other form never meets a hash.
 */
function indexRows(rows: readonly Row[], withPromptHashes: boolean): Map<string, Row[]> {
  const index = new Map<string, Row[]>();
  const put = (key: string, row: Row) => {
    const owners = index.get(key);
    if (!owners) index.set(key, [row]);
    else if (!owners.includes(row)) owners.push(row);
  };
  for (const row of rows) {
    put(rowKey(row), row);
    if (pyTruthy(row.rollout_id)) put(pyStr(row.rollout_id), row);
    const sid = row.scenario_id;
    if (sid !== null && sid !== undefined) {
      if (row.rollout_index !== null && row.rollout_index !== undefined) put(`${pyStr(sid)}#${pyStr(row.rollout_index)}`, row);
      put(pyStr(sid), row);
    }
    if (withPromptHashes) put(promptHashKey(row.prompt ?? null, has(row, 'final_text') ? row.final_text : ''), row);
  }
  return index;
}

/** The row a label names: `key`, else rollout_id / scenario_id + rollout_index, else prompt (+ final_text). */
function labelKey(item: Row): string | null {
  if (pyTruthy(item.key)) return pyStr(item.key);
  const sid = item.scenario_id;
  const idx = item.rollout_index;
  if (pyTruthy(item.rollout_id) || (sid !== null && sid !== undefined && idx !== null && idx !== undefined)) return rowKey(item);
  if (item.prompt !== null && item.prompt !== undefined) return promptHashKey(item.prompt, has(item, 'final_text') ? item.final_text : '');
  return null;
}

function more(n: number): string {
  return n > SHOWN_KEYS ? ` (and ${n - SHOWN_KEYS} more)` : '';
}

function ambiguousMessage(ambiguous: Map<string, Row[]>): string {
  const pooled: string[] = [];
  const bare: string[] = [];
  for (const [key, owners] of ambiguous) {
    const spellings = [...new Set(owners.map(rowKey))].sort();
    if (spellings.length > 1) bare.push(`${repr(key)} names ${owners.length} rows (${spellings.slice(0, SHOWN_KEYS).map(repr).join(', ')})`);
    else pooled.push(key);
  }
  const parts: string[] = [];
  if (bare.length) parts.push(`${bare.slice(0, SHOWN_KEYS).join('; ')}${more(bare.length)}: write the key as '<scenario_id>#<rollout_index>'`);
  if (pooled.length) {
    parts.push(
      `${pooled.slice(0, SHOWN_KEYS).map(repr).join(', ')}${more(pooled.length)} each name rows that carry the same scenario_id and rollout_index (rows pooled from several runs on one pinned task grid, or several phrasings of one task): give every row its own rollout_id before labeling, for example row['rollout_id'] = f"{run}-{i:05d}" with i the row's position, and key each label on it`,
    );
  }
  return `attach_labels: ${ambiguous.size} label key(s) name more than one row, so a label cannot say which row it belongs to; no row was changed. ${parts.join('. ')}.`;
}

function keyForm(rows: readonly Row[]): string {
  const shown = rows.slice(0, SHOWN_KEYS).map(rowKey);
  const own = shown.length ? `; these rows carry keys like ${shown.map(repr).join(', ')}` : '';
  return `a key is the row's rollout_id, '<scenario_id>#<rollout_index>' (a bare scenario_id names its one rollout), or prompt + final_text${own}`;
}

/**
 * The gold of a row from all its `gold_labels`, as attach_labels derives it: `gold_reward` the majority over the
 * records with a valid label, `gold_kind` from their kinds (goldKindOf). A tie (or no valid label) removes both.
 * Writes the row in place; false on a tie.
 */
export function deriveGold(row: Row): boolean {
  const all = Array.isArray(row[LABELS_KEY]) ? (row[LABELS_KEY] as unknown[]).filter(isObject) : [];
  const records = all.filter((r) => agreementLabel(r.label) !== null);
  const ones = records.reduce((s, r) => s + (r.label as number), 0);
  const zeros = records.length - ones;
  if (ones === zeros) {
    delete row[GOLD_KEY];
    delete row[GOLD_KIND_KEY];
    return false;
  }
  row[GOLD_KEY] = ones > zeros ? 1 : 0;
  row[GOLD_KIND_KEY] = goldKindOf(records.map((r) => r.kind));
  return true;
}

/** A label record as attach_labels appends it to `gold_labels`. */
export interface GoldLabelRecord {
  label: 0 | 1;
  annotator: string;
  kind: string;
  ts: number;
  note?: string;
}

/**
 * Appends label records to a row's `gold_labels` (after the ones it arrived with) and derives its gold, exactly
 * as attach_labels(rows, labels) without replace does. In place; returns the row.
 */
export function stampLabels(row: Row, records: readonly GoldLabelRecord[]): Row {
  if (records.length === 0) return row;
  const existing = Array.isArray(row[LABELS_KEY]) ? (row[LABELS_KEY] as unknown[]) : [];
  row[LABELS_KEY] = [...existing, ...records];
  deriveGold(row);
  return row;
}

/**
 * attach_labels(rows, labels, annotator, kind, replace): writes `gold_labels`, `gold_reward` and `gold_kind`
 * onto the rows in place (as the SDK does) and returns the object rows with the report.
 * Throws StatsValueError for a bad kind, a non-object label, an ambiguous key (before any row changes),
 * or when no label matched while some were unmatched.
 */
export function attachLabels(rows: readonly unknown[], labels: unknown, options: AttachLabelsOptions = {}): { rows: Row[]; report: AttachLabelsReport } {
  const kind = canonicalKind(options.kind ?? 'human');
  if (!(GOLD_KINDS as readonly string[]).includes(kind)) {
    throw new StatsValueError(`attach_labels(kind=${repr(kind)}): kind is one of ${kindList} ('verifier' reads as 'program')`);
  }
  const objectRows = rows.filter(isObject);
  const items = loadLabels(labels);
  const keys = items.map(labelKey);
  const index = indexRows(objectRows, keys.some((key) => key !== null && PROMPT_HASH_FORM.test(key)));
  const now = options.now ?? Date.now() / 1000;
  const unmatched: string[] = [];
  let invalid = 0;
  const ambiguous = new Map<string, Row[]>();
  const resolved: Array<[Row, Row]> = [];
  for (const [i, item] of items.entries()) {
    const key = keys[i];
    const raw = has(item, 'label') ? item.label : has(item, 'reward') ? item.reward : item[GOLD_KEY];
    const value = agreementLabel(raw);
    if (value === null) { invalid++; continue; }
    const owners = index.get(key ?? '') ?? [];
    if (owners.length === 0) { unmatched.push(key ?? 'None'); continue; }
    if (owners.length > 1) { if (!ambiguous.has(key ?? 'None')) ambiguous.set(key ?? 'None', owners); continue; }
    const own = canonicalKind(pyTruthy(item.kind) ? pyStr(item.kind) : kind);
    if (!(GOLD_KINDS as readonly string[]).includes(own)) {
      throw new StatsValueError(`attach_labels: label ${reprKey(key)} carries kind=${repr(own)}; kind is one of ${kindList} ('verifier' reads as 'program')`);
    }
    const record: Row = {
      label: value,
      annotator: pyTruthy(item.annotator) ? pyStr(item.annotator) : options.annotator ? options.annotator : 'unknown',
      kind: own,
      ts: pyTruthy(item.ts) ? item.ts : now,
    };
    if (pyTruthy(item.note)) record.note = pyStr(item.note);
    resolved.push([record, owners[0]]);
  }
  if (ambiguous.size) throw new StatsValueError(ambiguousMessage(ambiguous));
  if (unmatched.length && !resolved.length) {
    throw new StatsValueError(`attach_labels: none of the ${items.length} labels named a row (first keys: ${unmatched.slice(0, SHOWN_KEYS).map(repr).join(', ')}); ${keyForm(objectRows)}.`);
  }
  const touched = new Set<Row>();
  for (const [record, target] of resolved) {
    let existing = target[LABELS_KEY];
    if (!Array.isArray(existing) || (options.replace && !touched.has(target))) {
      existing = [];
      target[LABELS_KEY] = existing;
    }
    (existing as unknown[]).push(record);
    touched.add(target);
  }
  let ties = 0;
  const annotators = new Set<string>();
  for (const row of touched) {
    for (const r of (row[LABELS_KEY] as unknown[]).filter(isObject)) annotators.add(pyStr(r.annotator));
    if (!deriveGold(row)) ties++;
  }
  const report: AttachLabelsReport = {
    labels: items.length,
    matched: resolved.length,
    unmatched: unmatched.length,
    unmatched_keys: unmatched.slice(0, 10),
    invalid,
    rows_labeled: touched.size,
    ties,
    annotators: [...annotators].sort(),
  };
  const warnings: string[] = [];
  if (unmatched.length) {
    warnings.push(`${unmatched.length} label(s) named no row (first keys: ${unmatched.slice(0, SHOWN_KEYS).map(repr).join(', ')}); ${keyForm(objectRows)}`);
  }
  if (ties) warnings.push(`${ties} row(s) split evenly between annotators; gold_reward left unset there, read gold_labels and decide`);
  if (warnings.length) report.warnings = warnings;
  return { rows: objectRows, report };
}
