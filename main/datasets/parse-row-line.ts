// One JSONL line -> a validated row v1, or the reason it is not one.
import { describeZodError } from '../../shared/api/define';
import { normalizeRow } from '../../shared/schema/import-shapes';
import { looksLikeValidRow, rowSchema } from '../../shared/schema/row';

type Obj = Record<string, unknown>;

export type ParsedLine = { ok: true; row: Obj; unchanged: boolean } | { ok: false; message: string };

export function parseRowLine(line: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return { ok: false, message: `not valid JSON (${(error as Error).message})` };
  }
  const normalized = normalizeRow(value);
  if (!normalized.ok) return normalized;
  const row = normalized.row;
  if (looksLikeValidRow(row)) return { ok: true, row, unchanged: normalized.shape === 'v1' };
  const checked = rowSchema.safeParse(row);
  if (!checked.success) return { ok: false, message: `not a row: ${describeZodError(checked.error)}` };
  return { ok: true, row, unchanged: normalized.shape === 'v1' };
}
