// Does a reply quote the row's own privileged block (sdk-semantics §8.3 "privileged_leak")? The reference, the
// principle and every string of the hidden state at least 12 characters long (whitespace collapsed, lowercased) are
// searched for in the agent's text. A row without the block cannot be checked, and the report says how many could.
import { pyTruthy } from '../stats/keys';
import { assistantText } from './assistant-text';
import { pyStrip } from '../text/py-text';

type Obj = Record<string, unknown>;

export const LEAK_MIN_QUOTE_CHARS = 12;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Number);
const WS = /[\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;
const norm = (s: string): string => pyStrip(s.replace(WS, ' ')).toLowerCase();

function needles(privileged: unknown, minLen: number): Array<[string, string]> {
  if (!isObj(privileged)) return [];
  const out: Array<[string, string]> = [];
  const walk = (field: string, value: unknown): void => {
    if (isObj(value)) for (const [k, v] of Object.entries(value)) walk(`${field}.${k}`, v);
    else if (Array.isArray(value)) for (const v of value) walk(field, v);
    else if (typeof value === 'string') {
      const t = norm(value);
      if (Array.from(t).length >= minLen) out.push([field, t]);
    }
  };
  for (const key of ['reference', 'principle', 'hidden_state']) if (pyTruthy(privileged[key])) walk(key, privileged[key]);
  return out;
}

export interface LeakHit {
  field: string;
  needle: string;
}

/** null: the row carries no block to check; {} : checked, nothing quoted; {field, needle}: the first quote found. */
export function rowLeak(row: Obj, minLen = LEAK_MIN_QUOTE_CHARS): LeakHit | Record<string, never> | null {
  const found = needles(row.privileged, minLen);
  if (!found.length) return null;
  const hay = norm(assistantText(row));
  for (const [field, needle] of found) if (hay.includes(needle)) return { field, needle: Array.from(needle).slice(0, 80).join('') };
  return {};
}

export interface LeakEntry extends LeakHit {
  scenario_id: unknown;
  rollout_index: unknown;
}

export interface LeakState {
  nRows: number;
  nChecked: number;
  nLeaked: number;
  leaked: LeakEntry[];
}

/** leak_report, row by row. */
export class LeakTally {
  nRows = 0;
  nChecked = 0;
  readonly leaked: LeakEntry[] = [];
  nLeaked = 0;

  /** Adds a row; returns its hit when it quotes its block. */
  add(row: Obj): LeakHit | null {
    this.nRows++;
    const found = rowLeak(row);
    if (found === null) return null;
    this.nChecked++;
    if (!('field' in found)) return null;
    const hit = found as LeakHit;
    this.nLeaked++;
    if (this.leaked.length < 20) this.leaked.push({ scenario_id: row.scenario_id ?? null, rollout_index: row.rollout_index ?? null, ...hit });
    return hit;
  }

  state(): LeakState {
    return { nRows: this.nRows, nChecked: this.nChecked, nLeaked: this.nLeaked, leaked: [...this.leaked] };
  }

  /** Adds the tally of the rows that follow this one's. */
  merge(other: LeakState): void {
    this.nRows += other.nRows;
    this.nChecked += other.nChecked;
    this.nLeaked += other.nLeaked;
    for (const entry of other.leaked) if (this.leaked.length < 20) this.leaked.push(entry);
  }

  summary(): string {
    if (!this.nChecked) return `checked 0 of ${this.nRows} rows: none carried privileged context, so this says nothing about leaks`;
    if (!this.nLeaked) return `checked ${this.nChecked} of ${this.nRows} rows: no reply quoted its privileged context`;
    return `checked ${this.nChecked} of ${this.nRows} rows: ${this.nLeaked} quoted privileged context (${Math.round((100 * this.nLeaked) / this.nChecked)}%)`;
  }

  /** The export report's privileged_leaks block. */
  exportBlock(): { checked: boolean; n_checked: number; n_leaked: number; leaked: LeakEntry[]; summary: string } {
    return { checked: this.nChecked > 0, n_checked: this.nChecked, n_leaked: this.nLeaked, leaked: [...this.leaked], summary: this.summary() };
  }
}

/** A row's leak check as the selectors' facts carry it: whether it could be checked, and its hit. */
export function leakFact(row: Obj): { checked: boolean; hit: LeakHit | null } {
  const found = rowLeak(row);
  return { checked: found !== null, hit: found && 'field' in found ? (found as LeakHit) : null };
}
