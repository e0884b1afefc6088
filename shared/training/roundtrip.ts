// tool_call_roundtrip (sdk-semantics §8.3 "Gates"): every tool call's arguments must parse back to a dict (the OpenAI
// wire's JSON string) or already be one (TRL). Accumulated row by row, so a streamed export checks as it writes.
import { parsePyJson } from '../schema/py-json';
import { ARGUMENTS_ARE_DICT } from './wire';

type Obj = Record<string, unknown>;

export const EXPORT_FORMATS = ['openai', 'trl'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export interface RoundtripReport {
  checked: number;
  invalid: number;
  rows: number[];
  encoding: 'json_string' | 'dict';
  checked_for: string;
}

const NOTES = {
  json_string: "arguments parse back to a dict from their JSON string (OpenAI wire). A chat-template trainer needs dicts: export format='trl' for that.",
  dict: 'arguments are dicts, as HF chat templates render them (| tojson).',
} as const;

const isDict = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Number);

/** The whole conversation of an exported row: messages, or prompt + completion when both are message lists. */
export function rowTurns(row: Obj): unknown[] {
  if (Array.isArray(row.messages)) return row.messages;
  if (Array.isArray(row.prompt)) return [...row.prompt, ...(Array.isArray(row.completion) ? row.completion : [])];
  return [];
}

export interface RoundtripState {
  checked: number;
  invalid: number;
  bad: number[];
  rows: number;
}

export class RoundtripCheck {
  private checked = 0;
  private invalid = 0;
  private readonly bad: number[] = [];
  private index = 0;
  private readonly encoding: 'json_string' | 'dict';

  constructor(format: ExportFormat) {
    this.encoding = format === 'trl' ? 'dict' : 'json_string';
  }

  /** Checks the next row (its turns); returns how many of its calls failed. */
  add(turns: readonly unknown[]): number {
    let rowBad = 0;
    for (const message of turns) {
      if (!isDict(message)) continue;
      const calls = (message as Obj).tool_calls;
      if (!Array.isArray(calls)) continue;
      for (const call of calls) {
        const fn = isDict(call) && isDict((call as Obj).function) ? ((call as Obj).function as Obj) : {};
        this.checked++;
        const raw = fn.arguments;
        const known = this.encoding === 'json_string' && typeof raw === 'string' ? (call as { [ARGUMENTS_ARE_DICT]?: boolean })[ARGUMENTS_ARE_DICT] : undefined;
        if (known !== undefined) {
          if (!known) rowBad++;
          continue;
        }
        let parsed: unknown = raw;
        if (this.encoding === 'json_string' && typeof raw === 'string') {
          try {
            parsed = parsePyJson(raw);
          } catch {
            parsed = null;
          }
        }
        if (!isDict(parsed)) rowBad++;
      }
    }
    if (rowBad) {
      this.invalid += rowBad;
      if (this.bad.length < 20) this.bad.push(this.index);
    }
    this.index++;
    return rowBad;
  }

  /** What was counted, to merge into another check (a page converted elsewhere). */
  state(): RoundtripState {
    return { checked: this.checked, invalid: this.invalid, bad: [...this.bad], rows: this.index };
  }

  /** Adds a check of the rows that follow this one's (bad row numbers shift by the rows already checked here). */
  merge(other: RoundtripState): void {
    this.checked += other.checked;
    this.invalid += other.invalid;
    for (const i of other.bad) if (this.bad.length < 20) this.bad.push(this.index + i);
    this.index += other.rows;
  }

  report(): RoundtripReport {
    return { checked: this.checked, invalid: this.invalid, rows: [...this.bad], encoding: this.encoding, checked_for: NOTES[this.encoding] };
  }
}
