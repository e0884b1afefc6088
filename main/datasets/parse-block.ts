// Parses a block of complete JSONL lines into stored rows and per-line errors (runs in the import worker).
import type { ImportLineError } from '../../shared/api/datasets';
import type { StoredRow } from '../db/repos/rows';
import { parseRowLine } from './parse-row-line';
import { toStoredRow } from './row-columns';

export type ParsedRow = Omit<StoredRow, 'ordinal'> & { line: number };

export interface ParsedBlock {
  rows: ParsedRow[];
  errors: ImportLineError[];
}

/** `firstLine` is the 1-based line number of the block's first line. Blank lines are skipped silently. */
export function parseBlock(block: string, firstLine: number): ParsedBlock {
  const rows: ParsedRow[] = [];
  const errors: ImportLineError[] = [];
  let lineNo = firstLine;
  let start = 0;
  while (start < block.length) {
    let end = block.indexOf('\n', start);
    if (end === -1) end = block.length;
    let line = block.slice(start, end);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (line.trim() !== '') {
      const parsed = parseRowLine(line);
      if (parsed.ok) {
        const { ordinal: _ordinal, ...columns } = toStoredRow(parsed.row, 0, parsed.unchanged ? line.trim() : JSON.stringify(parsed.row));
        rows.push({ ...columns, line: lineNo });
      } else {
        errors.push({ line: lineNo, message: parsed.message });
      }
    }
    lineNo++;
    start = end + 1;
  }
  return { rows, errors };
}

/** Number of lines a block of complete lines holds (it ends with a newline, or is the file's last line). */
export function countLines(block: string): number {
  let count = 0;
  for (let at = block.indexOf('\n'); at !== -1; at = block.indexOf('\n', at + 1)) count++;
  return block.endsWith('\n') || block.length === 0 ? count : count + 1;
}
