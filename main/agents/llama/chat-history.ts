// Turns the loop's OpenAI-shaped conversation into node-llama-cpp chat history items, with the answer format
// and the tools described in the system message, tool results as user turns, and an open model turn at the end.
import type { ChatHistoryItem } from 'node-llama-cpp';
import type { ChatMessage, ToolSchema } from '../agent-types';
import { instructions } from './turn-format';

function toolCallText(call: { function: { name: string; arguments: string } }): string {
  let args: unknown = {};
  try {
    args = JSON.parse(call.function.arguments);
  } catch {
    args = {};
  }
  return JSON.stringify({ kind: 'tool_call', name: call.function.name, arguments: args });
}

export function toChatHistory(messages: ChatMessage[], tools: ToolSchema[]): ChatHistoryItem[] {
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content);
  const history: ChatHistoryItem[] = [{ type: 'system', text: [...system, instructions(tools)].join('\n\n') }];
  const pushUser = (text: string) => {
    const last = history[history.length - 1];
    if (last.type === 'user') last.text += `\n\n${text}`;
    else history.push({ type: 'user', text });
  };
  for (const message of messages) {
    if (message.role === 'user') pushUser(message.content);
    else if (message.role === 'tool') pushUser(`Result of tool ${message.name ?? message.tool_call_id}: ${message.content}`);
    else if (message.role === 'assistant') {
      const parts = message.tool_calls?.length
        ? message.tool_calls.map(toolCallText)
        : [JSON.stringify({ kind: 'final', text: message.content ?? '' })];
      history.push({ type: 'model', response: [parts.join('\n')] });
    }
  }
  history.push({ type: 'model', response: [] });
  return history;
}
