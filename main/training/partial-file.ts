// A training export's file while it is written: a temporary name beside the target (same folder, so the rename is
// atomic), renamed over the target only once complete. A gate failure, a cancel or a disk error removes it, so the
// chosen name never holds a partial export.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';

// Room for a few flushes in the stream, so the disk writes while the next rows convert: at the default 16 KB every
// flush waited for its write to finish before converting on.
const STREAM_BYTES = 1 << 20;

/** A temporary name beside `target`. */
export function partialName(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${randomBytes(6).toString('hex')}.partial`);
}

export class PartialFile {
  private readonly temp: string;
  private readonly stream: fs.WriteStream;
  private readonly failed: Promise<never>;
  bytes = 0;

  constructor(private readonly target: string) {
    this.temp = partialName(target);
    this.stream = fs.createWriteStream(this.temp, { mode: 0o644, highWaterMark: STREAM_BYTES });
    this.failed = new Promise<never>((_, reject) => this.stream.once('error', reject));
    this.failed.catch(() => undefined);
  }

  /** Writes `chunk`, waiting only when the stream is full (or failing with its error). */
  async write(chunk: Uint8Array): Promise<void> {
    this.bytes += chunk.length;
    if (!this.stream.write(chunk)) await Promise.race([once(this.stream, 'drain'), this.failed]);
  }

  /** Ends the file and puts it under the target's name. */
  async finish(): Promise<void> {
    this.stream.end();
    await Promise.race([once(this.stream, 'finish'), this.failed]);
    await fs.promises.rename(this.temp, this.target);
  }

  /** Removes what was written. */
  async discard(): Promise<void> {
    this.stream.destroy();
    await fs.promises.rm(this.temp, { force: true });
  }
}
