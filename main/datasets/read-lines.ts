// Reads a file as blocks of complete lines, 1 MiB at a time, split on the newline byte (never inside a UTF-8
// character). Blocks stay bytes here, so parse workers can take them without a copy and decode them there.
import fs from 'node:fs';
import { isAscii } from 'node:buffer';

async function* readLineByteBlocks(file: string): AsyncGenerator<Uint8Array> {
  let carry: Buffer | null = null;
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) {
    const bytes = chunk as Buffer;
    const last = bytes.lastIndexOf(0x0a);
    if (last === -1) {
      carry = carry ? Buffer.concat([carry, bytes]) : bytes;
      continue;
    }
    // Only the line that straddles two chunks is joined; each block is its own copy, free to transfer.
    const head = carry ? carry.length : 0;
    const block = Buffer.allocUnsafeSlow(head + last + 1);
    if (carry) carry.copy(block, 0);
    bytes.copy(block, head, 0, last + 1);
    carry = last + 1 < bytes.length ? Buffer.from(bytes.subarray(last + 1)) : null;
    yield block;
  }
  if (carry && carry.length > 0) yield Buffer.from(carry);
}

/** UTF-8 decoding with the much faster latin1 path for pure-ASCII blocks (most JSONL is). */
function decodeBlock(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return isAscii(buffer) ? buffer.toString('latin1') : buffer.toString('utf8');
}

export async function* readLineBlocks(file: string): AsyncGenerator<string> {
  for await (const block of readLineByteBlocks(file)) yield decodeBlock(block);
}
