// One JSONL line -> a validated row v1, or the reason it is not one.
import { normalizeRow } from '../../shared/schema/import-shapes';
import { looksLikeValidRow } from '../../shared/schema/row-fast-check';

type Obj = Record<string, unknown>;

export type ParsedLine = { ok: true; row: Obj; unchanged: boolean } | { ok: false; message: string };

/** The full row check (row-check.ts): null when the row is valid, else what is wrong with it. */
export type RowCheck = (row: Obj) => string | null;

/** `fullCheck` runs only for rows the fast check says no to (it carries zod, which a worker loads late). */
export function parseRowLine(line: string, fullCheck: RowCheck): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { ok: false, message: `not valid JSON (${(error as Error).message})` };
  }
  const normalized = normalizeRow(value);
  if (!normalized.ok) return normalized;
  const row = normalized.row;
  if (!looksLikeValidRow(row)) {
    const problem = fullCheck(row);
    if (problem !== null) return { ok: false, message: problem };
  }
  return { ok: true, row, unchanged: normalized.shape === 'v1' };
}
