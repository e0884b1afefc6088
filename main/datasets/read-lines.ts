// Reads a file as blocks of complete lines, 1 MiB at a time: split on the newline byte (never inside a UTF-8
// character), decoded with the fast latin1 path when a block is pure ASCII, as most JSONL is.
import fs from 'node:fs';
import { isAscii } from 'node:buffer';

export async function* readLineBlocks(file: string): AsyncGenerator<string> {
  let carry: Buffer | null = null;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) {
    const bytes = chunk as Buffer;
    const last = bytes.lastIndexOf(0x0a);
    if (last === -1) {
      carry = carry ? Buffer.concat([carry, bytes]) : bytes;
      continue;
    }
    // Only the line that straddles two chunks is copied; the rest of the chunk is decoded where it lies.
    let text = '';
    let start = 0;
    if (carry) {
      const first = bytes.indexOf(0x0a);
      text = decode(Buffer.concat([carry, bytes.subarray(0, first + 1)]));
      start = first + 1;
    }
    text += decode(bytes.subarray(start, last + 1));
    carry = last + 1 < bytes.length ? bytes.subarray(last + 1) : null;
    yield text;
  }
  if (carry && carry.length > 0) yield decode(carry);
}

function decode(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}
