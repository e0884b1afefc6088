// A dataset's rows as JSONL bytes, read from SQLite as the upload asks for them: memory stays flat whatever the
// size. It reads on its own read-only connection (WAL: a steady snapshot), because an open cursor on the writer
// connection would block every write while the upload runs.
import { Readable } from 'node:stream';
import Database from 'better-sqlite3';
import { iterateRowJson } from '../db/repos/rows';
import { openOptionsOf, type Db } from '../db/connection';
import { exportRowJson } from '../../shared/schema/export-row';

/** Bytes handed to the socket at a time. */
const CHUNK_BYTES = 256 << 10;

export interface RowFilter {
  /** Keep the row (parsed only when a filter is given). */
  (row: Record<string, unknown>): boolean;
}

export interface JsonlStream extends Readable {
  /** Rows and bytes produced so far. */
  readonly rows: number;
  readonly bytes: number;
}

export function openReader(db: Db): Db {
  return new Database(db.name, { readonly: true, fileMustExist: true, ...(openOptionsOf(db).nativeBinding ? { nativeBinding: openOptionsOf(db).nativeBinding } : {}) });
}

/** Rows of `datasetId` as the SDK exports them (privileged keys removed), one per line, optionally filtered. */
export function jsonlStream(db: Db, datasetId: string, keep?: RowFilter): JsonlStream {
  const reader = openReader(db);
  const rows = iterateRowJson(reader, datasetId);
  let count = 0;
  let bytes = 0;
  const stream = new Readable({
    read() {
      const parts: string[] = [];
      let size = 0;
      for (;;) {
        const next = rows.next();
        if (next.done) {
          if (parts.length) {
            const last = Buffer.from(parts.join(''));
            bytes += last.length;
            this.push(last);
          }
          this.push(null);
          return;
        }
        const json = exportRowJson(next.value);
        if (keep && !keep(JSON.parse(json) as Record<string, unknown>)) continue;
        const line = json + '\n';
        parts.push(line);
        size += line.length;
        count++;
        if (size >= CHUNK_BYTES) break;
      }
      const chunk = Buffer.from(parts.join(''));
      bytes += chunk.length;
      this.push(chunk);
    },
    destroy(error, callback) {
      close();
      callback(error);
    },
  }) as JsonlStream;
  function close() {
    if (!reader.open) return;
    rows.return(undefined);
    reader.close();
  }
  stream.on('end', close);
  Object.defineProperty(stream, 'rows', { get: () => count });
  Object.defineProperty(stream, 'bytes', { get: () => bytes });
  return stream;
}

/** Counts what jsonlStream would send: the Content-Length for a host that will not take a chunked body. */
export function jsonlSize(db: Db, datasetId: string, keep?: RowFilter): { rows: number; bytes: number } {
  let rows = 0;
  let bytes = 0;
  for (const json of iterateRowJson(db, datasetId)) {
    const exported = exportRowJson(json);
    if (keep && !keep(JSON.parse(exported) as Record<string, unknown>)) continue;
    rows++;
    bytes += Buffer.byteLength(exported) + 1;
  }
  return { rows, bytes };
}
