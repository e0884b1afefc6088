// How a kept fold's state is stored (kept-folds.ts): a compact encoding of plain data (null, booleans, numbers,
// strings, arrays, plain objects, Maps and Sets) in which each distinct string is written once. A fold's state
// names every task in several maps; V8's own serializer writes each of those keys again and took 60-140 ms to read
// back one side of a 100k-row compare here, this encoding about 40 ms (maps keyed by task are read by one loop), and
// some 25 ms once the task sums were arrays (task-sums.ts: an array of numbers or strings is read by one loop too).
//
// Layout (little-endian): a header of five uint32 (magic, then the lengths of the four parts), the numbers
// (float64), the counts and string indexes (uint32), the tags (uint8), and the strings as one JSON array (UTF-8).
// Identity is not kept: a value reached twice is read back as two equal copies.

const MAGIC = 0x77646b31; // "wdk1"
/** Bytes that end before what their counts say (damaged, or not written here). */
const SHORT = 'a kept fold ends early';

const enum Tag {
  Undefined,
  Null,
  False,
  True,
  Number,
  String,
  Array,
  Map,
  Set,
  Object,
  /** A Map of string keys to numbers: its size, then each key's string index (ints) and value (nums). */
  NumberMap,
  /** A Map of string keys to arrays of numbers: its size, then each key's string index and array length (ints), the elements (nums). */
  NumberArrayMap,
  /** A non-empty array of numbers only (task sums' counts and sums): its length (ints), the elements (nums). */
  NumberArray,
  /** A non-empty array of strings only (task sums' keys): its length, then each element's string index (ints). */
  StringArray,
}

/** An array of numbers only (a hole is not a number: every() would skip it). */
function isNumberArray(value: unknown): value is number[] {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'number') return false;
  return true;
}

/** An array of strings only (holes are not strings). */
function isStringArray(value: unknown[]): value is string[] {
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false;
  return true;
}

/** The shape of a Map all of whose keys are strings, when its values are all numbers or all arrays of numbers. */
function mapShape(map: Map<unknown, unknown>): Tag.NumberMap | Tag.NumberArrayMap | null {
  let numbers = true;
  let arrays = true;
  for (const [key, value] of map) {
    if (typeof key !== 'string') return null;
    if (typeof value !== 'number') numbers = false;
    if (arrays && !isNumberArray(value)) arrays = false;
    if (!numbers && !arrays) return null;
  }
  return map.size === 0 ? null : numbers ? Tag.NumberMap : Tag.NumberArrayMap;
}

class Writer {
  tags: number[] = [];
  nums: number[] = [];
  ints: number[] = [];
  strings: string[] = [];
  private readonly stringIndex = new Map<string, number>();

  string(text: string): void {
    let at = this.stringIndex.get(text);
    if (at === undefined) {
      at = this.strings.length;
      this.strings.push(text);
      this.stringIndex.set(text, at);
    }
    this.ints.push(at);
  }

  value(v: unknown): void {
    switch (typeof v) {
      case 'undefined':
        this.tags.push(Tag.Undefined);
        return;
      case 'boolean':
        this.tags.push(v ? Tag.True : Tag.False);
        return;
      case 'number':
        this.tags.push(Tag.Number);
        this.nums.push(v);
        return;
      case 'string':
        this.tags.push(Tag.String);
        this.string(v);
        return;
      case 'object':
        if (v === null) this.tags.push(Tag.Null);
        else this.object(v);
        return;
      default:
        throw new TypeError(`a kept fold holds plain data only, not a ${typeof v}`);
    }
  }

  /** An array of numbers only or of strings only (task sums' columns) is read back by one loop; others element by element. */
  private array(v: unknown[]): void {
    const tag = v.length === 0 ? Tag.Array : isNumberArray(v) ? Tag.NumberArray : isStringArray(v) ? Tag.StringArray : Tag.Array;
    this.tags.push(tag);
    this.ints.push(v.length);
    if (tag === Tag.NumberArray) for (let i = 0; i < v.length; i++) this.nums.push(v[i] as number);
    else if (tag === Tag.StringArray) for (let i = 0; i < v.length; i++) this.string(v[i] as string);
    else for (let i = 0; i < v.length; i++) this.value(v[i]);
  }

  private object(v: object): void {
    if (Array.isArray(v)) {
      this.array(v);
    } else if (v instanceof Map) {
      const shape = mapShape(v);
      if (shape !== null) return this.flatMap(v as Map<string, number | number[]>, shape);
      this.tags.push(Tag.Map);
      this.ints.push(v.size);
      for (const [key, entry] of v) {
        this.value(key);
        this.value(entry);
      }
    } else if (v instanceof Set) {
      this.tags.push(Tag.Set);
      this.ints.push(v.size);
      for (const entry of v) this.value(entry);
    } else if (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null) {
      const keys = Object.keys(v);
      this.tags.push(Tag.Object);
      this.ints.push(keys.length);
      for (const key of keys) {
        this.string(key);
        this.value((v as Record<string, unknown>)[key]);
      }
    } else throw new TypeError(`a kept fold holds plain data only, not a ${v.constructor?.name ?? 'object'}`);
  }

  /** The bulk of a fold (maps keyed by task) in one tag: read back by one tight loop, not a call per value. */
  private flatMap(map: Map<string, number | number[]>, shape: Tag.NumberMap | Tag.NumberArrayMap): void {
    this.tags.push(shape);
    this.ints.push(map.size);
    for (const [key, value] of map) {
      this.string(key);
      if (typeof value === 'number') this.nums.push(value);
      else {
        this.ints.push(value.length);
        for (let i = 0; i < value.length; i++) this.nums.push(value[i]);
      }
    }
  }
}

const align8 = (n: number) => (n + 7) & ~7;

/** `value` encoded; throws a TypeError for anything but plain data. */
export function encodeFoldState(value: unknown): Uint8Array {
  const writer = new Writer();
  writer.value(value);
  const strings = Buffer.from(JSON.stringify(writer.strings), 'utf8');
  const numsAt = 24; // the header's 20 bytes, aligned for float64
  const intsAt = numsAt + writer.nums.length * 8;
  const tagsAt = intsAt + writer.ints.length * 4;
  const stringsAt = tagsAt + writer.tags.length;
  const out = new Uint8Array(align8(stringsAt + strings.length));
  const header = new DataView(out.buffer);
  [MAGIC, writer.nums.length, writer.ints.length, writer.tags.length, strings.length].forEach((n, i) => header.setUint32(i * 4, n, true));
  new Float64Array(out.buffer, numsAt, writer.nums.length).set(writer.nums);
  new Uint32Array(out.buffer, intsAt, writer.ints.length).set(writer.ints);
  out.set(writer.tags, tagsAt);
  out.set(strings, stringsAt);
  return out;
}

class Reader {
  private tag = 0;
  private num = 0;
  private int = 0;

  constructor(
    private readonly tags: Uint8Array,
    private readonly nums: Float64Array,
    private readonly ints: Uint32Array,
    private readonly strings: string[],
  ) {}

  get done(): boolean {
    return this.tag === this.tags.length && this.num === this.nums.length && this.int === this.ints.length;
  }

  private count(): number {
    if (this.int >= this.ints.length) throw new RangeError(SHORT);
    return this.ints[this.int++];
  }

  private string(): string {
    const text = this.strings[this.count()];
    if (text === undefined) throw new RangeError('a kept fold names a string it does not hold');
    return text;
  }

  private flatMap(shape: number): Map<string, number | number[]> {
    const n = this.count();
    const { ints, nums, strings } = this;
    const out = new Map<string, number | number[]>();
    let int = this.int;
    let num = this.num;
    const perEntry = shape === Tag.NumberMap ? 1 : 2;
    if (int + n * perEntry > ints.length) throw new RangeError(SHORT);
    for (let i = 0; i < n; i++) {
      const key = strings[ints[int++]];
      if (key === undefined) throw new RangeError('a kept fold names a string it does not hold');
      if (shape === Tag.NumberMap) {
        if (num >= nums.length) throw new RangeError(SHORT);
        out.set(key, nums[num++]);
        continue;
      }
      const length = ints[int++];
      if (num + length > nums.length) throw new RangeError(SHORT);
      const values = new Array<number>(length);
      for (let j = 0; j < length; j++) values[j] = nums[num++];
      out.set(key, values);
    }
    this.int = int;
    this.num = num;
    return out;
  }

  private numberArray(): number[] {
    const n = this.count();
    const nums = this.nums;
    let at = this.num;
    if (at + n > nums.length) throw new RangeError(SHORT);
    const out = new Array<number>(n);
    for (let i = 0; i < n; i++) out[i] = nums[at++];
    this.num = at;
    return out;
  }

  private stringArray(): string[] {
    const n = this.count();
    const { ints, strings } = this;
    let at = this.int;
    if (at + n > ints.length) throw new RangeError(SHORT);
    const out = new Array<string>(n);
    for (let i = 0; i < n; i++) {
      const text = strings[ints[at++]];
      if (text === undefined) throw new RangeError('a kept fold names a string it does not hold');
      out[i] = text;
    }
    this.int = at;
    return out;
  }

  value(): unknown {
    if (this.tag >= this.tags.length) throw new RangeError(SHORT);
    switch (this.tags[this.tag++]) {
      case Tag.Undefined:
        return undefined;
      case Tag.Null:
        return null;
      case Tag.False:
        return false;
      case Tag.True:
        return true;
      case Tag.Number:
        if (this.num >= this.nums.length) throw new RangeError(SHORT);
        return this.nums[this.num++];
      case Tag.String:
        return this.string();
      case Tag.Array: {
        const n = this.count();
        const out = new Array(n);
        for (let i = 0; i < n; i++) out[i] = this.value();
        return out;
      }
      case Tag.Map: {
        const n = this.count();
        const out = new Map();
        for (let i = 0; i < n; i++) {
          const key = this.value();
          out.set(key, this.value());
        }
        return out;
      }
      case Tag.Set: {
        const n = this.count();
        const out = new Set();
        for (let i = 0; i < n; i++) out.add(this.value());
        return out;
      }
      case Tag.Object: {
        const n = this.count();
        const entries: Array<[string, unknown]> = [];
        for (let i = 0; i < n; i++) {
          const key = this.string();
          entries.push([key, this.value()]);
        }
        return Object.fromEntries(entries); // each key its own property: assigning "__proto__" would set the prototype
      }
      case Tag.NumberMap:
      case Tag.NumberArrayMap:
        return this.flatMap(this.tags[this.tag - 1]);
      case Tag.NumberArray:
        return this.numberArray();
      case Tag.StringArray:
        return this.stringArray();
      default:
        throw new RangeError('a kept fold holds an unknown tag');
    }
  }
}

/** The value encodeFoldState encoded; throws a RangeError for bytes it did not write. */
export function decodeFoldState(bytes: Uint8Array): unknown {
  if (bytes.byteLength < 24) throw new RangeError('not a kept fold');
  // Typed views need aligned memory: a Buffer from SQLite may start anywhere in its pool.
  const own = bytes.byteOffset % 8 === 0 ? bytes : new Uint8Array(bytes);
  const header = new DataView(own.buffer, own.byteOffset, 20);
  const [magic, numCount, intCount, tagCount, stringBytes] = [0, 1, 2, 3, 4].map((i) => header.getUint32(i * 4, true));
  const numsAt = 24;
  const intsAt = numsAt + numCount * 8;
  const tagsAt = intsAt + intCount * 4;
  const stringsAt = tagsAt + tagCount;
  if (magic !== MAGIC || stringsAt + stringBytes > own.byteLength) throw new RangeError('not a kept fold');
  const base = own.byteOffset;
  const strings = JSON.parse(Buffer.from(own.buffer, base + stringsAt, stringBytes).toString('utf8')) as unknown;
  if (!Array.isArray(strings)) throw new RangeError('not a kept fold');
  const reader = new Reader(
    new Uint8Array(own.buffer, base + tagsAt, tagCount),
    new Float64Array(own.buffer, base + numsAt, numCount),
    new Uint32Array(own.buffer, base + intsAt, intCount),
    strings as string[],
  );
  const value = reader.value();
  if (!reader.done) throw new RangeError('a kept fold holds more than one value');
  return value;
}
