// A dataset's rows as JSONL bytes, read from SQLite as the upload's spool asks for them: memory stays flat whatever
// the size. It reads on its own read-only connection (WAL: a steady snapshot), because an open cursor on the writer
// connection would block every write while the upload runs. Each row goes out as the SDK exports it (the
// privileged block removed), with its calibration stamp, and only when it is on the side being pushed; the
// gate's row facts are folded on the way (RowFacts).
import { Readable } from 'node:stream';
import { iterateRowJson } from '../rows/index';
import type { Db } from '../db/connection';
import { openReader } from './reader';
import { BLOCKED_KEYS, exportRowJson } from '../../shared/schema/export-row';
import { RowFacts } from './gate-input';
import { rowStamper, withStamp, type PushPlan } from './push-plan';

/** Bytes handed to the socket at a time. */
const CHUNK_BYTES = 64 << 10;

/** Which rows, and how: the plan's sides and gate; `side` is the one being pushed. */
export interface RowPick {
  plan: PushPlan;
  side: number;
  /** Folds the gate's row facts over every row, on either side (the upload that makes the gate's report)... */
  facts?: RowFacts;
  /** ...and is handed them once the last row is read, while the bytes still in flight are sent. */
  onFacts?: (facts: RowFacts) => void;
}

export interface JsonlStream extends Readable {
  /** Rows and bytes produced so far. */
  readonly rows: number;
  readonly bytes: number;
}

/**
 * Rows that name no blocked key go out as stored; exportRowJson decides for the others. One regular expression
 * finds them about seven times faster than exportRowJson's six substring searches (1.6 vs 12 us a row).
 */
const MAY_HOLD_BLOCKED = new RegExp(`"(?:${BLOCKED_KEYS.join('|')})"`);
const exported = (json: string) => (MAY_HOLD_BLOCKED.test(json) ? exportRowJson(json) : json);

/** The line for row `index` (without its newline), or undefined when it is not on the side being pushed. */
function lineFor(json: string, index: number, pick: RowPick | undefined, stamp: ((row: unknown) => string | undefined) | undefined): string | undefined {
  const onSide = !pick?.plan.side || pick.plan.side[index] === pick.side;
  if (!stamp) return onSide ? exported(json) : undefined;
  if (!onSide) {
    if (pick?.facts && !RowFacts.skips(json)) pick.facts.add(JSON.parse(json));
    return undefined;
  }
  // With the gate, each row is read as it goes out (its task, reward and version make its stamp): never all at once.
  const row = JSON.parse(json) as unknown;
  pick?.facts?.add(row);
  return withStamp(exported(json), stamp(row));
}

export function jsonlStream(db: Db, datasetId: string, pick?: RowPick): JsonlStream {
  const reader = openReader(db);
  const rows = iterateRowJson(reader, datasetId);
  const stamp = pick?.plan.gate ? rowStamper(pick.plan.gate) : undefined;
  let index = 0;
  let count = 0;
  let bytes = 0;
  function close() {
    if (!reader.open) return;
    rows.return(undefined);
    reader.close();
  }
  const stream = new Readable({
    read() {
      // The lines are written straight into the chunk, each with its newline: no joined string, no copy per line.
      const parts: string[] = [];
      let size = 0;
      let done = false;
      while (size < CHUNK_BYTES) {
        const next = rows.next();
        if (next.done) {
          done = true;
          break;
        }
        const line = lineFor(next.value, index++, pick, stamp);
        if (line === undefined) continue;
        parts.push(line);
        size += Buffer.byteLength(line) + 1;
        count++;
      }
      if (parts.length) {
        const chunk = Buffer.allocUnsafe(size);
        let at = 0;
        for (const line of parts) {
          at += chunk.write(line, at);
          chunk[at++] = 0x0a;
        }
        bytes += size;
        this.push(chunk);
      }
      if (done) {
        close();
        this.push(null);
        if (pick?.facts) pick.onFacts?.(pick.facts);
      }
    },
    destroy(error, callback) {
      close();
      callback(error);
    },
  }) as JsonlStream;
  Object.defineProperty(stream, 'rows', { get: () => count });
  Object.defineProperty(stream, 'bytes', { get: () => bytes });
  return stream;
}
