// half(task_key) for judge_trust's held-out halves: int(sha256(utf8)[:8], 16) % 2 (stats-semantics §13.1 step 4).
// A SHA-256 that reuses its buffers and keeps only the first word: 10k task keys hash in a few milliseconds.
import { K256 } from './hash';

const K = Int32Array.from(K256);
const H0 = new Int32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
const w = new Int32Array(64);
const h = new Int32Array(8);
let buf = new Uint8Array(256);

/** UTF-8 bytes of `text` into the shared buffer, padded for SHA-256; returns the padded length. */
function fill(text: string): number {
  let n = 0;
  const ensure = (extra: number) => {
    if (n + extra + 72 > buf.length) { const next = new Uint8Array((n + extra + 72) * 2); next.set(buf.subarray(0, n)); buf = next; }
  };
  ensure(text.length * 3);
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c < 0x80) buf[n++] = c;
    else if (c < 0x800) { buf[n++] = 0xc0 | (c >> 6); buf[n++] = 0x80 | (c & 63); }
    else {
      if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
        const d = text.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
          i++;
          buf[n++] = 0xf0 | (c >> 18); buf[n++] = 0x80 | ((c >> 12) & 63); buf[n++] = 0x80 | ((c >> 6) & 63); buf[n++] = 0x80 | (c & 63);
          continue;
        }
      }
      if (c >= 0xd800 && c <= 0xdfff) c = 0xfffd; // a lone surrogate encodes as U+FFFD, as TextEncoder does
      buf[n++] = 0xe0 | (c >> 12); buf[n++] = 0x80 | ((c >> 6) & 63); buf[n++] = 0x80 | (c & 63);
    }
  }
  const bits = n * 8;
  let total = n + 9;
  total += (64 - (total % 64)) % 64;
  buf.fill(0, n, total);
  buf[n] = 0x80;
  buf[total - 4] = (bits >>> 24) & 255; buf[total - 3] = (bits >>> 16) & 255; buf[total - 2] = (bits >>> 8) & 255; buf[total - 1] = bits & 255;
  buf[total - 5] = Math.floor(bits / 2 ** 32) & 255;
  return total;
}

/** The first 32-bit word of SHA-256 over the UTF-8 of `text`. */
export function sha256FirstWord(text: string): number {
  const total = fill(text);
  h.set(H0);
  for (let off = 0; off < total; off += 64) {
    for (let i = 0; i < 16; i++) { const p = off + 4 * i; w[i] = (buf[p] << 24) | (buf[p + 1] << 16) | (buf[p + 2] << 8) | buf[p + 3]; }
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15], y = w[i - 2];
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
    }
    let a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (hh + S1 + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      hh = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  return h[0] >>> 0;
}

/** Which held-out half a task key falls in: 0 ("a") or 1 ("b"). */
export function taskHalf(task: string): number {
  return sha256FirstWord(task) & 1;
}
