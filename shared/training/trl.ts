// The TRL shapes (sdk-semantics §8.3 format="trl", newest behaviour): arguments as dicts; SFT rows without a `prompt`
// string beside `messages` (the ask moves to prompt_text) and without loss_mask, which TRL never reads; with
// mask_mode="final" or unroll, prompt/completion rows (the completion is the last assistant turn); preference rows as
// the shared prefix (`prompt`) and the one assistant turn per side where the two diverge.
import { isDeepStrictEqualJson } from './json-equal';
import { DECODED_ARGUMENTS, decodedArguments, type DecodedArguments } from './wire';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Number);

export const TRL_KINDS = ['training', 'completion', 'preference'] as const;
export type TrlKind = (typeof TRL_KINDS)[number];

/** The same turns with each tool call's arguments decoded to the structured value (a dict, when it is one). */
export function trlMessages(messages: unknown): Obj[] {
  if (!Array.isArray(messages)) return [];
  const out: Obj[] = [];
  for (const message of messages) {
    if (!isObj(message)) continue;
    const entry: Obj = { ...message };
    const calls = entry.tool_calls;
    if (Array.isArray(calls) && calls.length) {
      entry.tool_calls = calls.map((raw) => {
        const call: Obj = isObj(raw) ? { ...raw } : {};
        const fn: Obj = isObj(call.function) ? { ...call.function } : {};
        // A call the wire form made carries the value its arguments text was written from (when it reads back the same).
        const known = (call as { [DECODED_ARGUMENTS]?: DecodedArguments })[DECODED_ARGUMENTS];
        fn.arguments = known && known.text === fn.arguments ? known.value : decodedArguments(fn.arguments);
        call.function = fn;
        return call;
      });
    }
    out.push(entry);
  }
  return out;
}

/** A training row as TRL conversational SFT: prompt -> prompt_text (at the end), no loss_mask. */
export function trlTrainingRow(row: Obj): Obj {
  const out: Obj = { ...row };
  out.messages = trlMessages(row.messages);
  const prompt = out.prompt;
  delete out.prompt;
  if (typeof prompt === 'string' && prompt) out.prompt_text = prompt;
  delete out.loss_mask;
  return out;
}

/** A training row as TRL prompt/completion (completion from the last assistant turn on), or null with none past the first message. */
export function trlCompletionRow(row: Obj): Obj | null {
  const out = trlTrainingRow(row);
  const messages = out.messages as Obj[];
  delete out.messages;
  let last = -1;
  messages.forEach((m, i) => {
    if (m.role === 'assistant') last = i;
  });
  if (last < 1) return null;
  out.prompt = messages.slice(0, last);
  out.completion = messages.slice(last);
  return out;
}

/**
 * A preference row as TRL conversational DPO: the prefix both sides share is the prompt, each side the one assistant
 * turn where they differ. `cut`: a side had turns after it, now gone. Null when the sides never differ, differ first
 * on something other than an assistant turn, or one side ends at the split.
 */
export function trlPreferenceRow(row: Obj): { row: Obj; cut: boolean } | null {
  const chosen = trlMessages(row.chosen);
  const rejected = trlMessages(row.rejected);
  let k = 0;
  while (k < chosen.length && k < rejected.length && isDeepStrictEqualJson(chosen[k], rejected[k])) k++;
  if (k < 1 || k >= chosen.length || k >= rejected.length) return null;
  if (chosen[k].role !== 'assistant' || rejected[k].role !== 'assistant') return null;
  const out: Obj = { ...row, prompt: chosen.slice(0, k), chosen: [chosen[k]], rejected: [rejected[k]] };
  return { row: out, cut: chosen.length > k + 1 || rejected.length > k + 1 };
}

/** to_trl(rows, kind): rows already built, reshaped (rows with no completion, and pairs with no contrast, dropped). */
export function toTrl(rows: readonly unknown[], kind: TrlKind = 'training'): Obj[] {
  const objects = rows.filter(isObj);
  if (kind === 'training') return objects.map(trlTrainingRow);
  if (kind === 'completion') return objects.flatMap((r): Obj[] => { const out = trlCompletionRow(r); return out ? [out] : []; });
  return objects.flatMap((r): Obj[] => { const out = trlPreferenceRow(r); return out ? [out.row] : []; });
}
