// CPython's random.Random (MT19937) exactly as stats-semantics.md section 2 describes it.
import { sha512Bytes, utf8 } from './hash';
import { StatsValueError } from './errors';

const N = 624;
const M = 397;

function mul32(a: number, b: number): number {
  return Math.imul(a, b) >>> 0;
}

/** Seed words of a non-negative integer, least significant 32 bits first (0 -> [0]). */
function seedWords(value: bigint): number[] {
  let v = value < 0n ? -value : value;
  if (v === 0n) return [0];
  const words: number[] = [];
  while (v > 0n) {
    words.push(Number(v & 0xffffffffn));
    v >>= 32n;
  }
  return words;
}

export type PySeed = number | bigint | string;

/** A Python-compatible Mersenne Twister: `new PyRandom(0).random()` === `random.Random(0).random()`. */
export class PyRandom {
  private readonly mt = new Uint32Array(N);
  private mti = N + 1;

  constructor(seed: PySeed = 0) {
    this.seed(seed);
  }

  seed(seed: PySeed): void {
    let value: bigint;
    if (typeof seed === 'string') {
      const bytes = utf8(seed);
      const digest = sha512Bytes(bytes);
      value = 0n;
      for (const b of bytes) value = (value << 8n) | BigInt(b);
      for (const b of digest) value = (value << 8n) | BigInt(b);
    } else if (typeof seed === 'bigint') {
      value = seed;
    } else {
      if (!Number.isInteger(seed)) throw new StatsValueError(`PyRandom seed must be a whole number, a bigint or a string (got ${seed})`);
      value = BigInt(seed);
    }
    this.initByArray(seedWords(value));
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < N; i++) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (mul32(1812433253, prev) + i) >>> 0;
    }
    this.mti = N;
  }

  private initByArray(key: number[]): void {
    this.initGenrand(19650218);
    const mt = this.mt;
    let i = 1;
    let j = 0;
    let k = N > key.length ? N : key.length;
    for (; k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ mul32(prev, 1664525)) + key[j] + j) >>> 0;
      i++;
      j++;
      if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
      if (j >= key.length) j = 0;
    }
    for (k = N - 1; k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ mul32(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= N) { mt[0] = mt[N - 1]; i = 1; }
    }
    mt[0] = 0x80000000;
    this.mti = N;
  }

  private twist(): void {
    const mt = this.mt;
    let kk = 0;
    let y: number;
    for (; kk < N - M; kk++) {
      y = (mt[kk] & 0x80000000) | (mt[kk + 1] & 0x7fffffff);
      mt[kk] = mt[kk + M] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
    }
    for (; kk < N - 1; kk++) {
      y = (mt[kk] & 0x80000000) | (mt[kk + 1] & 0x7fffffff);
      mt[kk] = mt[kk + (M - N)] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
    }
    y = (mt[N - 1] & 0x80000000) | (mt[0] & 0x7fffffff);
    mt[N - 1] = mt[M - 1] ^ (y >>> 1) ^ (y & 1 ? 0x9908b0df : 0);
    this.mti = 0;
  }

  /** The next raw 32-bit output (genrand_uint32). */
  nextUint32(): number {
    if (this.mti >= N) this.twist();
    let y = this.mt[this.mti++];
    y ^= y >>> 11;
    y ^= (y << 7) & 0x9d2c5680;
    y ^= (y << 15) & 0xefc60000;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** random(): a float in [0, 1) with 53 random bits. */
  random(): number {
    const a = this.nextUint32() >>> 5;
    const b = this.nextUint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  /** getrandbits(k) for 0 <= k <= 53 (a plain number). */
  getrandbits(k: number): number {
    if (!Number.isInteger(k) || k < 0) throw new StatsValueError(`getrandbits needs a non-negative whole number of bits (got ${k})`);
    if (k === 0) return 0;
    if (k <= 32) return this.nextUint32() >>> (32 - k);
    if (k > 53) throw new StatsValueError(`getrandbits supports at most 53 bits here (got ${k})`);
    const low = this.nextUint32();
    const high = this.nextUint32() >>> (64 - k);
    return high * 4294967296 + low;
  }

  /** randrange(n) = _randbelow(n): rejection sampling on bit_length(n) bits. */
  randrange(n: number): number {
    if (!Number.isInteger(n) || n <= 0) throw new StatsValueError(`empty range for randrange(${n})`);
    if (n < 0x100000000) {
      const shift = Math.clz32(n); // 32 - bit_length(n)
      let r = this.nextUint32() >>> shift;
      while (r >= n) r = this.nextUint32() >>> shift;
      return r;
    }
    if (n > Number.MAX_SAFE_INTEGER) throw new StatsValueError(`randrange supports n up to 2^53 here (got ${n})`);
    const k = BigInt(n).toString(2).length;
    let r = this.getrandbits(k);
    while (r >= n) r = this.getrandbits(k);
    return r;
  }

  /** shuffle(x) in place: i from the end down to 1, swap with randrange(i + 1). */
  shuffle<T>(arr: T[]): void {
    for (let i = arr.length - 1; i > 0; i--) {
      const j = this.randrange(i + 1);
      const t = arr[i];
      arr[i] = arr[j];
      arr[j] = t;
    }
  }

  /** sample(population, k) with CPython's pool / set strategies. */
  sample<T>(population: readonly T[], k: number): T[] {
    const n = population.length;
    if (!Number.isInteger(k) || k < 0 || k > n) throw new StatsValueError(`Sample larger than population or is negative (k=${k}, population ${n})`);
    const result: T[] = new Array(k);
    let setsize = 21;
    if (k > 5) setsize += 4 ** Math.ceil(Math.log(k * 3) / Math.log(4));
    if (n <= setsize) {
      const pool = population.slice();
      for (let i = 0; i < k; i++) {
        const j = this.randrange(n - i);
        result[i] = pool[j];
        pool[j] = pool[n - i - 1];
      }
    } else {
      const selected = new Set<number>();
      for (let i = 0; i < k; i++) {
        let j = this.randrange(n);
        while (selected.has(j)) j = this.randrange(n);
        selected.add(j);
        result[i] = population[j];
      }
    }
    return result;
  }
}
