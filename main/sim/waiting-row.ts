// A landed row between its rollout and its verdict. Rows wait for a judge's process a turn or more of the event
// loop, hundreds at a time, and what survives young-generation GCs is what they cost to copy: so for a judge that
// takes JSON the row is held as its text (made once, sent to the judge and cut again for storage: verdict-json.ts),
// its indexed columns and the few keys a verdict reads, not as its objects. Other judges get the row itself.
import type { JudgeVerdict } from '../judges/judge-types';
import { rowJson, verdictBase } from '../judges/verdict-json';
import { ROW_COLUMNS, rowColumns, toStoredRow, type RowColumns, type StoredRow } from '../rows/index';

type Obj = Record<string, unknown>;

export interface WaitingRow {
  /** Cut by the length cap: not sent to the judge (§3.5). */
  capped: boolean;
  /** The row's JSON text, when it waits as text; else the row. */
  text: string | null;
  row: Obj | null;
  /** Its stored form once `grade` has put the verdict on what it holds (applyVerdict, in place). */
  stored(verdict: JudgeVerdict, grade: (row: Obj, verdict: JudgeVerdict) => Obj): StoredRow;
}

/** The columns read from keys a verdict writes (reward; lineage, which it copies with eval_run kept; markers): read again after it. */
const VERDICT_COLUMNS = ROW_COLUMNS.filter((spec) => spec.key === 'reward' || spec.key === 'evalRun' || spec.key === 'markerFlags');

export function waitingRow(row: Obj, ordinal: number, asText: boolean): WaitingRow {
  return asText ? waitingAsText(row, ordinal) : waitingAsRow(row, ordinal);
}

function waitingAsRow(row: Obj, ordinal: number): WaitingRow {
  return { capped: row.finish_reason === 'length', text: null, row, stored: (verdict, grade) => toStoredRow(grade(row, verdict), ordinal) };
}

/** Nothing here keeps `row` itself: the closure holds its text, columns and verdict stand-in only. */
function waitingAsText(row: Obj, ordinal: number): WaitingRow {
  const capped = row.finish_reason === 'length';
  const json = rowJson(row);
  const columns: RowColumns = rowColumns(row);
  const base = verdictBase(row);
  return {
    capped,
    text: json.text,
    row: null,
    stored(verdict, grade) {
      const graded = grade(base, verdict);
      const out: Record<string, unknown> = { ordinal, ...columns };
      for (const spec of VERDICT_COLUMNS) out[spec.key] = spec.read(graded);
      out.json = json.graded(graded);
      return out as StoredRow;
    },
  };
}
