// One import: a file the parse workers read themselves, block by block (readFile), or bytes that arrive in
// chunks of any size (write), parsed by the same byte parser, so both refuse the same lines with the same words. Lines are parsed off-thread (block-parser) while this thread writes the parsed
// rows in batches, strictly in file order. Without skip_invalid one bad line refuses the file: what was
// written is removed and nothing is kept.
import fs from 'node:fs';
import type { ImportLineError, ImportResult } from '../../shared/api/datasets';
import { holdBulkWrite } from '../db/bulk-write';
import type { Db } from '../db/connection';
import { insertDataset, setDatasetStatus } from '../db/repos/datasets';
import { datasetVersion } from '../db/changes';
import { appendRows, deleteDataset, keepFold, serializeFold } from '../rows/index';
import { foldsKeptAtWrite } from '../../shared/stats/kept-folds';
import { decodeFoldState } from '../rows/fold-codec';
import { createBlockParser, MAX_BLOCKS_IN_FLIGHT, parseFileInOrder, type BlockParser } from './block-parser';
import type { ParsedBlock } from './parse-block';

const NEWLINE = 0x0a;

/** `head` followed by the first `length` bytes of `tail`, in fresh memory that can be transferred. */
function concat(head: Uint8Array, tail: Uint8Array, length: number): Uint8Array {
  const out = new Uint8Array(new ArrayBuffer(head.length + length));
  out.set(head);
  out.set(tail.subarray(0, length), head.length);
  return out;
}

/** Files from this size on are imported as a bulk write (half the writer's usual 32 MiB between checkpoints). */
const BULK_WRITE_MIN_BYTES = 16 << 20;

/** Rows an import folds as it parses (parse-block.ts, large rows only): as many as a run keeps folds for. */
const KEEP_AT_IMPORT_MAX_ROWS = 400_000;

/** Errors kept for the report; every bad line is still counted. */
const MAX_REPORTED_ERRORS = 1000;

export interface ImportOptions {
  name: string;
  skipInvalid: boolean;
  source?: string;
}

export class ImportSession {
  readonly datasetId: string;
  private readonly parser: BlockParser;
  /** The start of a line that continues in the next chunk. */
  private carry: Uint8Array = new Uint8Array(0);
  private linesDone = 0;
  private imported = 0;
  private badLines = 0;
  private readonly errors: ImportLineError[] = [];
  private inFlight: Array<Promise<void>> = [];
  private tail: Promise<void> = Promise.resolve();
  private failure: Error | null = null;
  private finished = false;
  /** The blocks' folds merged in file order (undefined before the first block; null once a block came unfolded). */
  private folds: unknown[] | null | undefined = undefined;

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
    this.parser = createBlockParser();
  }

  get progress(): { lines_read: number; rows_imported: number; errors: number } {
    return { lines_read: this.linesDone, rows_imported: this.imported, errors: this.badLines };
  }

  /** Feed the next piece of the file (bytes, or text already decoded); a line may continue into the next piece. */
  async write(chunk: Uint8Array | string): Promise<void> {
    if (this.finished) throw new Error('this import has already finished');
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    const cut = bytes.lastIndexOf(NEWLINE);
    if (cut === -1) {
      this.carry = concat(this.carry, bytes, bytes.length);
      return;
    }
    // Each block gets memory of its own (it is transferred to a parse worker): the carried start, then the
    // chunk up to its last newline; the rest is carried into the next chunk.
    this.send(concat(this.carry, bytes, cut + 1));
    this.carry = new Uint8Array(bytes.subarray(cut + 1));
    while (this.inFlight.length >= MAX_BLOCKS_IN_FLIGHT) await this.inFlight.shift();
    if (this.failure) throw this.failure;
  }

  /** Imports a whole file the engine reads itself (local callers: the CLI, the desktop app's file dialog). */
  async readFile(file: string, onProgress?: () => void): Promise<void> {
    if (this.finished) throw new Error('this import has already finished');
    await this.tail;
    // A large file is a bulk write: its WAL checkpoints run on another thread meanwhile (bulk-write.ts). A small
    // one would not reach a single checkpoint, so it does without the extra thread.
    const { size } = await fs.promises.stat(file);
    const releaseBulkWrite = size >= BULK_WRITE_MIN_BYTES ? holdBulkWrite(this.db) : async () => {};
    try {
      await parseFileInOrder(this.parser, file, size, (block) => {
        this.apply(block);
        onProgress?.();
      });
    } finally {
      await releaseBulkWrite();
    }
  }

  async end(): Promise<ImportResult> {
    if (this.carry.length > 0) this.send(concat(this.carry, new Uint8Array(0), 0));
    this.carry = new Uint8Array(0);
    this.finished = true;
    await this.tail;
    this.parser.close();
    if (this.failure) {
      deleteDataset(this.db, this.datasetId);
      throw this.failure;
    }
    if (this.imported === 0 && this.badLines === 0) {
      this.errors.push({ line: 0, message: 'the file holds no rows' });
      this.badLines++;
    }
    const refused = this.badLines > 0 && (!this.options.skipInvalid || this.imported === 0);
    if (refused) {
      deleteDataset(this.db, this.datasetId);
      return { dataset_id: null, rows_imported: 0, rows_skipped: this.badLines, errors: this.errors };
    }
    setDatasetStatus(this.db, this.datasetId, 'ready');
    this.keepFolds();
    return { dataset_id: this.datasetId, rows_imported: this.imported, rows_skipped: this.badLines, errors: this.errors };
  }

  async abort(): Promise<void> {
    this.finished = true;
    await this.tail.catch(() => undefined);
    this.parser.close();
    deleteDataset(this.db, this.datasetId);
  }

  private send(bytes: Uint8Array): void {
    const parsed = this.parser.parse({ kind: 'bytes', bytes });
    parsed.catch(() => undefined); // a failure is raised where it is awaited, in order
    // Apply in order: each block waits for the one before it, so line numbers and ordinals follow the file.
    this.tail = this.tail.then(async () => {
      if (this.failure) return;
      try {
        this.apply(await parsed);
      } catch (error) {
        this.failure = error instanceof Error ? error : new Error(String(error));
      }
    });
    this.inFlight.push(this.tail);
  }

  /** The merged folds kept at the dataset's version now (optional: a failure only costs the first compare a fold). */
  private keepFolds(): void {
    const states = this.folds;
    this.folds = null;
    if (!states) return;
    try {
      const version = datasetVersion(this.db, this.datasetId);
      if (version === undefined) return;
      foldsKeptAtWrite().forEach((fold, f) => keepFold(this.db, this.datasetId, fold.key, version, serializeFold(states[f])));
    } catch {
      // not kept: the first statistic on this dataset folds its rows
    }
  }

  /** A block's folds merged after the earlier blocks'; any block without them, or too many rows, and none are kept. */
  private mergeFolds(block: ParsedBlock): void {
    if (this.folds === null) return;
    if (block.folds === null || this.imported + block.count > KEEP_AT_IMPORT_MAX_ROWS) {
      this.folds = null;
      return;
    }
    const states = block.folds.map(decodeFoldState);
    if (this.folds === undefined) this.folds = states;
    else {
      const folds = foldsKeptAtWrite();
      this.folds = this.folds.map((state, f) => folds[f].merge(state, states[f]));
    }
  }

  private apply(block: ParsedBlock): void {
    const lineOffset = this.linesDone;
    this.linesDone += block.lineCount;
    for (const error of block.errors) {
      this.badLines++;
      if (this.errors.length < MAX_REPORTED_ERRORS) this.errors.push({ line: lineOffset + error.line, message: error.message });
    }
    // Once the file is refused, later blocks are read only to report every bad line.
    if (this.badLines > 0 && !this.options.skipInvalid) return;
    appendRows(this.db, this.datasetId, { block, firstOrdinal: this.imported });
    this.mergeFolds(block);
    this.imported += block.count;
    this.parser.recycle(block.bytes);
  }
}
