// A streamed import: lines arrive in chunks of any size; rows are written in batches as they come.
// Without skip_invalid one bad line refuses the file: what was written is removed and nothing is kept.
import type { ImportLineError, ImportResult } from '../../shared/api/datasets';
import type { Db } from '../db/connection';
import { deleteDataset, insertDataset, setDatasetStatus } from '../db/repos/datasets';
import { rowInserter, type StoredRow } from '../db/repos/rows';
import { parseRowLine } from './parse-row-line';
import { toStoredRow } from './row-columns';

const BATCH_ROWS = 5000;
/** Errors kept for the report; every bad line is still counted. */
const MAX_REPORTED_ERRORS = 1000;

export interface ImportOptions {
  name: string;
  skipInvalid: boolean;
  source?: string;
}

export class ImportSession {
  readonly datasetId: string;
  private readonly insertBatch: (rows: StoredRow[]) => void;
  private pending: StoredRow[] = [];
  private carry = '';
  private lineNo = 0;
  private imported = 0;
  private badLines = 0;
  private readonly errors: ImportLineError[] = [];
  private finished = false;

  constructor(
    private readonly db: Db,
    private readonly options: ImportOptions,
  ) {
    this.datasetId = insertDataset(db, {
      name: options.name,
      kind: 'import',
      status: 'importing',
      source: options.source ?? null,
      meta: { import_pid: process.pid },
    });
    this.insertBatch = rowInserter(db, this.datasetId);
  }

  get progress(): { lines_read: number; rows_imported: number; errors: number } {
    return { lines_read: this.lineNo, rows_imported: this.imported + this.pending.length, errors: this.badLines };
  }

  /** Feed the next piece of text; a line may continue into the next piece. */
  write(text: string): void {
    if (this.finished) throw new Error('this import has already finished');
    let start = 0;
    const data = this.carry + text;
    for (;;) {
      const end = data.indexOf('\n', start);
      if (end === -1) break;
      this.handleLine(data.slice(start, end));
      start = end + 1;
    }
    this.carry = data.slice(start);
  }

  end(): ImportResult {
    if (this.carry.length > 0) this.handleLine(this.carry);
    this.carry = '';
    this.finished = true;
    if (this.imported + this.pending.length === 0 && this.badLines === 0) {
      this.errors.push({ line: 0, message: 'the file holds no rows' });
      this.badLines++;
    }
    const refused = this.badLines > 0 && (!this.options.skipInvalid || this.imported + this.pending.length === 0);
    if (refused) {
      this.pending = [];
      deleteDataset(this.db, this.datasetId);
      return { dataset_id: null, rows_imported: 0, rows_skipped: this.badLines, errors: this.errors };
    }
    this.flush();
    setDatasetStatus(this.db, this.datasetId, 'ready');
    return { dataset_id: this.datasetId, rows_imported: this.imported, rows_skipped: this.badLines, errors: this.errors };
  }

  abort(): void {
    this.finished = true;
    this.pending = [];
    deleteDataset(this.db, this.datasetId);
  }

  private handleLine(rawLine: string): void {
    this.lineNo++;
    const line = rawLine.endsWith('\r') ? rawLine.slice(0, -1) : rawLine;
    if (line.trim() === '') return;
    const parsed = parseRowLine(line);
    if (!parsed.ok) {
      this.badLines++;
      if (this.errors.length < MAX_REPORTED_ERRORS) this.errors.push({ line: this.lineNo, message: parsed.message });
      return;
    }
    // Once the file is refused, keep reading only to report every bad line.
    if (this.badLines > 0 && !this.options.skipInvalid) return;
    const ordinal = this.imported + this.pending.length;
    this.pending.push(toStoredRow(parsed.row, ordinal, parsed.unchanged ? line.trim() : JSON.stringify(parsed.row)));
    if (this.pending.length >= BATCH_ROWS) this.flush();
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    this.insertBatch(this.pending);
    this.imported += this.pending.length;
    this.pending = [];
  }
}
