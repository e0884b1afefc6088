// shared/stats/hash.ts is SHA-1/256/512 in plain TypeScript (shared/ may not import node:crypto): every digest must
// be Node's, on texts of every length around the block and length-field boundaries, ASCII and not, and on bytes.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha1Hex, sha256Hex, sha512Bytes, utf8 } from '../../../shared/stats/hash';

const node = (algorithm: string, input: string | Uint8Array) => createHash(algorithm).update(input).digest('hex');

describe('the pure hashes', () => {
  it('give what node:crypto gives for texts of 0 to 300 characters and for bytes', () => {
    for (let n = 0; n <= 300; n++) {
      const text = 'abcdefghijklmnopqrstuvwxyz0123456789'.repeat(10).slice(0, n);
      const accented = 'é☕𝄞x'.repeat(80).slice(0, n);
      for (const input of [text, accented]) {
        expect(sha1Hex(input), `sha1 of ${n}`).toBe(node('sha1', input));
        expect(sha256Hex(input), `sha256 of ${n}`).toBe(node('sha256', input));
        expect(Buffer.from(sha512Bytes(utf8(input))).toString('hex'), `sha512 of ${n}`).toBe(node('sha512', input));
      }
    }
    const bytes = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7) & 0xff);
    expect(sha1Hex(bytes)).toBe(node('sha1', bytes));
    expect(sha256Hex(bytes)).toBe(node('sha256', bytes));
  });
});
