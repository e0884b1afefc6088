// What the agent said in a row (the SDK's style.assistant_text and optimize._messages): the final reply and every
// assistant turn of its messages (else of the conversation rebuilt from its steps).
import { conversation } from '../schema/conversation';
import { pyStr, pyTruthy } from '../stats/keys';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Number);

// A row's messages are read by several checks in turn (junk, trainable content, reply length, style): rebuilt once.
// Rows are not changed while their facts are read, and a WeakMap lets each go with its row. The checks read roles,
// tool calls and the agent's turns: a rebuilt tool turn writes its result out only if something reads it.
const built = new WeakMap<Obj, Obj[]>();

/** optimize._messages: the row's own message objects when it has any, else conversation(row). */
export function rowMessages(row: Obj): Obj[] {
  const carried = row.messages;
  if (Array.isArray(carried) && carried.length) return carried.filter(isObj);
  let messages = built.get(row);
  if (!messages) built.set(row, (messages = conversation(row, true) as unknown as Obj[]));
  return messages;
}

export const text = (value: unknown): string => (pyTruthy(value) ? pyStr(value) : '');

/** style.assistant_text: the final reply and each assistant turn's string content, joined by newlines, lowercased. */
export function assistantText(row: Obj): string {
  const parts = [text(row.final_text)];
  for (const message of rowMessages(row)) {
    if (text(message.role) === 'assistant' && typeof message.content === 'string') parts.push(message.content);
  }
  return parts.filter((p) => p).join('\n').toLowerCase();
}
