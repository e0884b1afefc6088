// style_markers (sdk-semantics.md §7.1; docs/markers.md): five phrase families read off everything the agent said,
// each marker 1.0 when no phrase of its list appears (a clean reply) and 0.0 when one does.
import { conversation } from '../../schema/conversation';
import { isObject, pyStr, pyTruthy, type Row } from '../keys';

export const BOILERPLATE = [
  'certainly!', 'certainly,', 'absolutely!', 'of course!', 'great question', 'as an ai', 'as a language model',
  'i hope this helps', 'let me know if you have any other questions', "let me know if there's anything else",
  'feel free to ask', 'happy to help',
] as const;
export const HEDGING = [
  'it depends', "i'm not sure", 'i am not sure', 'may or may not', "it's worth noting", 'it is worth noting',
  "it's important to note", 'it is important to note', 'keep in mind that', 'generally speaking', 'in most cases',
  "i can't say for certain",
] as const;
export const APOLOGY = ['i apologize', "i'm sorry", 'i am sorry', 'sorry for the', 'apologies for'] as const;
export const SYCOPHANCY = [
  "you're absolutely right", 'you are absolutely right', "you're right", 'great point', 'excellent point',
  'excellent question', 'i completely agree', 'what a great', "that's a great idea",
] as const;
/** `answered` is the over-refusal marker: 0.0 when the reply refuses. */
export const REFUSAL = [
  "i can't help with", 'i cannot help with', "i can't assist", 'i cannot assist', "i'm unable to", 'i am unable to',
  "i won't be able to", "i'm not able to", 'i am not able to', "i can't do that", 'i cannot do that',
] as const;

/** Marker name -> the phrases that zero it, in the SDK's order (the report lists markers in this order). */
export const STYLE_MARKERS: Readonly<Record<string, readonly string[]>> = {
  no_boilerplate: BOILERPLATE,
  no_hedging: HEDGING,
  no_apology: APOLOGY,
  no_sycophancy: SYCOPHANCY,
  answered: REFUSAL,
};

export type PhraseTable = Record<string, readonly string[]>;

/** The stock table with `phrases` laid over it: a name given replaces that list, a new name adds a marker at the end. */
export function phraseTable(phrases?: Record<string, readonly unknown[]> | null): PhraseTable {
  const table: PhraseTable = { ...STYLE_MARKERS };
  if (phrases) for (const [name, list] of Object.entries(phrases)) table[name] = list.map((p) => pyStr(p));
  return table;
}

/**
 * Everything the agent said, lower-cased: the final reply and the content of each assistant message (the row's
 * own messages when it has some, else the conversation rebuilt from its steps), joined by newlines.
 */
export function assistantText(row: Row): string {
  const parts: string[] = [];
  if (pyTruthy(row.final_text)) parts.push(pyStr(row.final_text));
  const carried = Array.isArray(row.messages) && row.messages.length > 0 ? row.messages.filter(isObject) : null;
  const messages = carried ?? conversation(row);
  for (const message of messages) {
    if (pyTruthy(message.role) && pyStr(message.role) === 'assistant') {
      const content = (message as Row).content;
      if (typeof content === 'string' && content !== '') parts.push(content);
    }
  }
  return parts.join('\n').toLowerCase();
}

/** The phrases of `phrases` found in `lowered` (already lower-cased text), in list order. */
export function phraseHits(lowered: string, phrases: readonly string[]): string[] {
  const out: string[] = [];
  for (const phrase of phrases) if (lowered.includes(phrase.toLowerCase())) out.push(phrase);
  return out;
}

/**
 * Each list of a table as one pattern of its lower-cased phrases, taken literally: whether it matches the lowered
 * text is whether some phrase is in it (as `includes` would say), but one regex test per family was some three
 * times quicker than a dozen `includes` calls, the stamp's largest cost on 100k rows. An empty list matches nothing
 * (null), where an empty pattern would match everything.
 */
type LoweredTable = ReadonlyArray<readonly [name: string, anyPhrase: RegExp | null]>;
const literal = (phrase: string) => phrase.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const lowerTable = (table: PhraseTable): LoweredTable =>
  Object.entries(table).map(([name, list]) => [name, list.length ? new RegExp(list.map((p) => literal(p.toLowerCase())).join('|')) : null] as const);
const STOCK_LOWERED = lowerTable(STYLE_MARKERS);
/** A caller's table (style_report's, say) is compiled once however many rows it is used for (tables are not changed once made). */
const loweredCache = new WeakMap<PhraseTable, LoweredTable>();
function loweredTable(table: PhraseTable): LoweredTable {
  if (table === STYLE_MARKERS) return STOCK_LOWERED;
  let out = loweredCache.get(table);
  if (!out) loweredCache.set(table, (out = lowerTable(table)));
  return out;
}

/** Writes one row's style markers (name -> 1.0 clean / 0.0 hit) into `out`, in table order; no array per row. */
function styleValuesInto(lowered: string, table: LoweredTable, out: Record<string, number>): Record<string, number> {
  for (const [name, anyPhrase] of table) out[name] = anyPhrase !== null && anyPhrase.test(lowered) ? 0 : 1;
  return out;
}

/** One row's style markers (name -> 1.0 clean / 0.0 hit), for a given text. */
export function styleValues(lowered: string, table: PhraseTable): Record<string, number> {
  return styleValuesInto(lowered, loweredTable(table), {});
}

/** The stock style markers of a lower-cased text, written into `out` (the stamp's one object per row). */
export function stockStyleValuesInto(lowered: string, out: Record<string, number>): Record<string, number> {
  return styleValuesInto(lowered, STOCK_LOWERED, out);
}

/** style_markers(rows, phrases=): stamps every object row's markers in place (other names kept) and returns the rows. */
export function styleMarkers(rows: unknown[], options: { phrases?: Record<string, readonly unknown[]> | null } = {}): unknown[] {
  const table = loweredTable(phraseTable(options.phrases));
  for (const row of rows) {
    if (!isObject(row)) continue;
    if (!isObject(row.markers)) row.markers = {};
    styleValuesInto(assistantText(row), table, row.markers as Record<string, number>);
  }
  return [...rows];
}
