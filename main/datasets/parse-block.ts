// Parses a block of complete JSONL lines into stored rows and per-line errors (runs in the import worker).
import type { ImportLineError } from '../../shared/api/datasets';
import type { StoredRow } from '../db/repos/rows';
import { parseRowLine } from './parse-row-line';
import { toStoredRow } from './row-columns';


export interface ParsedBlock {
  /** Ordinals are left at 0: the importer numbers rows once blocks are applied in file order. */
  rows: StoredRow[];
  errors: ImportLineError[];
  /** Lines the block held, blank ones included. */
  lineCount: number;
}

/** Line numbers start at `firstLine` (1 for a block's own count). Blank lines are skipped silently. */
export function parseBlock(block: string, firstLine = 1): ParsedBlock {
  const rows: StoredRow[] = [];
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
        rows.push(toStoredRow(parsed.row, 0, parsed.unchanged ? line.trim() : JSON.stringify(parsed.row)));
      } else {
        errors.push({ line: lineNo, message: parsed.message });
      }
    }
    lineNo++;
    start = end + 1;
  }
  return { rows, errors, lineCount: lineNo - firstLine };
}
