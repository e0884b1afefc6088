// Runs rows through a module judge's processes. Each process judges a chunk of rows at a time, with the next chunk
// already sent (IN_FLIGHT per process), so it never waits for the engine's turn to get more; a watchdog kills a
// process whose current row overruns the deadline (a synchronous endless loop included), charges that row, starts
// a fresh process and sends it the rest.
//
// Which row is running: a fast chunk answers once at its end; a chunk that has run 20 ms reports what is done
// before each next row starts (judge-child.ts). So when a deadline passes or the process dies, the row charged is
// the first unanswered one if the chunk has reported anything, or when it holds one row; otherwise (it died in its
// first 20 ms) its rows go again one per chunk, so the next death names its row exactly.
//
// A judge that times out or crashes MAX_FAILURES_IN_A_ROW times in a row is given up on: the rows still waiting
// get the same status at once, so even a judge that loops on every row ends in about MAX_FAILURES_IN_A_ROW x the
// deadline (x2 for its first chunk), not rows x the deadline.
import { startIsolate, type Isolate, type IsolateOptions } from './judge-isolate';
import { isRowOutcome, type FailedStatus, type FromChild, type RowOutcome, type ToChild } from './judge-protocol';

type Row = Record<string, unknown>;

export const MAX_FAILURES_IN_A_ROW = 5;
/** Rows per queued chunk: small enough to spread over processes, and the unit chunks are merged by (nextChunk). */
const CHUNK_ROWS = 32;
/**
 * A free process takes the queued chunks together, so a judge that fell behind (its process descheduled, the
 * engine's turn long) catches up in one hop instead of one chunk per turn of the engine: as many rows as it
 * judges in about CHUNK_MS by the last chunks' pace (SEND_ROWS at most). Well under the 20 ms after which the
 * process reports before each row (judge-child.ts), so a fast judge answers a chunk with one message.
 */
const CHUNK_MS = 8;
const SEND_ROWS = 1024;
const FIRST_SEND_ROWS = 128;
/** Chunks out to a process at once: the one it judges, and the next, queued in the process (judge-child.ts). */
const IN_FLIGHT = 2;

export interface PoolOptions extends IsolateOptions {
  timeoutMs: number;
  /** Processes at most (started as work queues up). */
  size: number;
}

interface Job {
  outcomes: Array<RowOutcome | undefined>;
  left: number;
  resolve(outcomes: RowOutcome[]): void;
}

interface Chunk {
  /** Each row's JSON text (see ToChild). */
  rows: string[];
  /** Whose each row is (queued chunks of several jobs go out as one), and where its outcome goes in job.outcomes. */
  jobs: Job[];
  offsets: number[];
  /** A row sent alone to find which row killed its process: never merged with others. */
  alone?: boolean;
}

interface Slot {
  isolate: Isolate;
  /** The chunks sent and not yet answered in full, in the order the process judges them: the first is running. */
  out: Array<{ chunk: Chunk; id: number }>;
  /** How many rows of the running chunk are answered. */
  received: number;
  /** When the running chunk went out or began, or its last report came in: the running row started no earlier. */
  progressAt: number;
  reported: boolean;
  timer: NodeJS.Timeout | null;
}

/** A row's JSON text, or why it cannot be sent (a BigInt, a cycle: never in a stored row). */
function jsonOf(row: Row): string | RowOutcome {
  try {
    const text = JSON.stringify(row);
    if (typeof text === 'string') return text;
  } catch (error) {
    return { status: 'error', meta: { error: `the row could not be sent to the judge: ${(error as Error).message}` } };
  }
  return { status: 'error', meta: { error: 'the row could not be sent to the judge: it is not a JSON object' } };
}

export class JudgePool {
  private readonly slots = new Set<Slot>();
  private readonly queue: Chunk[] = [];
  private starting = 0;
  private nextChunkId = 1;
  private failuresInARow = 0;
  /** Rows per message, from the pace the judge's processes report (see CHUNK_MS). */
  private sendRows = FIRST_SEND_ROWS;
  private tripped: { status: FailedStatus; meta: Row } | null = null;
  private closed = false;

  private constructor(
    private readonly options: PoolOptions,
    first: Isolate,
  ) {
    this.info = first.info;
    this.adopt(first);
  }

  readonly info: Isolate['info'];

  /** Loads the judge in its first process; a load failure rejects with a JudgeLoadError. */
  static async start(options: PoolOptions): Promise<JudgePool> {
    return new JudgePool(options, await startIsolate(options));
  }

  run(rows: Row[]): Promise<RowOutcome[]> {
    return this.runTexts(rows.map(jsonOf));
  }

  /**
   * Rows given as their JSON text (JSON.stringify of each, as a caller that also stores them made it once), or an
   * outcome already decided for a row that could not be written as JSON.
   */
  runTexts(texts: Array<string | RowOutcome>): Promise<RowOutcome[]> {
    if (texts.length === 0) return Promise.resolve([]);
    return new Promise((resolve) => {
      const job: Job = { outcomes: new Array(texts.length), left: texts.length, resolve: resolve as Job['resolve'] };
      let rows: string[] = [];
      let jobs: Job[] = [];
      let offsets: number[] = [];
      for (let i = 0; i < texts.length; i++) {
        const text = texts[i];
        if (typeof text === 'string') {
          rows.push(text);
          jobs.push(job);
          offsets.push(i);
        } else {
          job.outcomes[i] = text;
          job.left--;
        }
        if (rows.length === CHUNK_ROWS || (i === texts.length - 1 && rows.length > 0)) {
          this.queue.push({ rows, jobs, offsets });
          rows = [];
          jobs = [];
          offsets = [];
        }
      }
      if (job.left === 0) return resolve(job.outcomes as RowOutcome[]);
      this.pump();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const closedOutcome: RowOutcome = { status: 'error', meta: { error: 'the judge was closed before it answered' } };
    const waiting = [...this.queue.splice(0), ...[...this.slots].flatMap((slot) => slot.out.map((sent) => sent.chunk))];
    for (const chunk of waiting) chunk.rows.forEach((_, j) => this.settle(chunk, j, closedOutcome));
    for (const slot of this.slots) {
      if (slot.timer) clearTimeout(slot.timer);
      slot.isolate.kill();
    }
    this.slots.clear();
  }

  private settle(chunk: Chunk, index: number, outcome: RowOutcome): void {
    const job = chunk.jobs[index];
    const at = chunk.offsets[index];
    if (job.outcomes[at] !== undefined) return;
    job.outcomes[at] = outcome;
    if (--job.left === 0) job.resolve(job.outcomes as RowOutcome[]);
  }

  private pump(): void {
    if (this.closed) return;
    if (this.tripped) {
      const given = this.tripped;
      for (const chunk of this.queue.splice(0)) chunk.rows.forEach((_, j) => this.settle(chunk, j, given));
      return;
    }
    for (const slot of this.slots) {
      while (this.queue.length > 0 && slot.out.length < IN_FLIGHT) this.send(slot, this.nextChunk());
    }
    if (this.queue.length > 0 && this.slots.size + this.starting < this.options.size) this.spawn();
  }

  /** The queue's first chunk, with the chunks behind it up to SEND_ROWS rows (rows sent alone stay alone). */
  private nextChunk(): Chunk {
    const first = this.queue.shift()!;
    if (first.alone || this.queue.length === 0 || this.queue[0].alone) return first;
    // Spread over processes: while more could start, a process takes its share only.
    const room = this.slots.size + this.starting < this.options.size ? CHUNK_ROWS : this.sendRows;
    if (first.rows.length >= room) return first;
    const merged: Chunk = { rows: [...first.rows], jobs: [...first.jobs], offsets: [...first.offsets] };
    while (this.queue.length > 0 && !this.queue[0].alone && merged.rows.length + this.queue[0].rows.length <= room) {
      const next = this.queue.shift()!;
      for (let j = 0; j < next.rows.length; j++) {
        merged.rows.push(next.rows[j]);
        merged.jobs.push(next.jobs[j]);
        merged.offsets.push(next.offsets[j]);
      }
    }
    return merged;
  }

  private spawn(): void {
    this.starting++;
    startIsolate(this.options).then(
      (isolate) => {
        this.starting--;
        if (this.closed) return isolate.kill();
        this.adopt(isolate);
        this.pump();
      },
      (error: Error) => {
        this.starting--;
        this.tripped ??= { status: 'crashed', meta: { error: `the judge could not be started again: ${error.message}` } };
        this.pump();
      },
    );
  }

  private adopt(isolate: Isolate): void {
    const slot: Slot = { isolate, out: [], received: 0, progressAt: 0, reported: false, timer: null };
    this.slots.add(slot);
    isolate.child.on('message', (message: FromChild) => this.onMessage(slot, message));
    isolate.onDeath((reason) => this.lose(slot, 'crashed', { error: reason }));
  }

  private send(slot: Slot, chunk: Chunk): void {
    const id = this.nextChunkId++;
    try {
      slot.isolate.child.send({ type: 'chunk', id, rows: chunk.rows } satisfies ToChild);
    } catch (error) {
      chunk.rows.forEach((_, j) => this.settle(chunk, j, { status: 'error', meta: { error: `the row could not be sent to the judge: ${(error as Error).message}` } }));
      return;
    }
    slot.out.push({ chunk, id });
    if (slot.out.length === 1) this.begin(slot);
    // A ref'd timer: while rows are out, the engine waits for them (the judge's processes themselves are unref'd).
    slot.timer ??= setTimeout(() => this.watch(slot), this.options.timeoutMs);
  }

  /** The slot's first chunk out is the one running now (the process takes the next as soon as one is done). */
  private begin(slot: Slot): void {
    slot.received = 0;
    slot.progressAt = Date.now();
    slot.reported = false;
  }

  /** The deadline runs from the chunk's last report (or its start): the running row started no earlier. */
  private watch(slot: Slot): void {
    slot.timer = null;
    if (slot.out.length === 0) return;
    const due = slot.progressAt + this.options.timeoutMs;
    const now = Date.now();
    if (due > now) {
      slot.timer = setTimeout(() => this.watch(slot), due - now + 1);
      return;
    }
    this.lose(slot, 'timeout', { timeout_s: this.options.timeoutMs / 1000 });
  }

  private onMessage(slot: Slot, message: FromChild): void {
    const running = slot.out[0];
    if (!running || message?.type !== 'results' || message.id !== running.id || message.from !== slot.received || !Array.isArray(message.outcomes)) return;
    const chunk = running.chunk;
    const count = Math.min(message.outcomes.length, chunk.rows.length - slot.received);
    for (let j = 0; j < count; j++) {
      const outcome = message.outcomes[j];
      this.settle(chunk, slot.received + j, isRowOutcome(outcome) ? outcome : { status: 'invalid_result', meta: { problem: 'the judge process sent a malformed result' } });
    }
    if (count > 0) this.failuresInARow = 0;
    slot.received += count;
    slot.progressAt = Date.now();
    slot.reported = true;
    if (message.retire === true) return this.retire(slot);
    if (slot.received >= chunk.rows.length) {
      this.pace(message.ms, chunk.rows.length);
      slot.out.shift();
      if (slot.out.length > 0) this.begin(slot);
      else if (slot.timer) clearTimeout(slot.timer), (slot.timer = null);
      this.pump();
    }
  }

  /** Sizes the next messages by how long this chunk took (a number from the judge's process: only ever clamped). */
  private pace(ms: unknown, rows: number): void {
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) return;
    const fits = ms <= 0 ? SEND_ROWS : Math.floor((CHUNK_MS * rows) / ms);
    // Halfway towards what fits, so one slow or fast chunk does not swing the size.
    this.sendRows = Math.max(CHUNK_ROWS, Math.min(SEND_ROWS, Math.round((this.sendRows + fits) / 2)));
  }

  /** Ends a spoilt process and sends what it had not answered yet to a fresh one. */
  private retire(slot: Slot): void {
    if (!this.slots.delete(slot)) return;
    if (slot.timer) clearTimeout(slot.timer);
    slot.isolate.kill();
    this.requeueWaiting(slot);
    const chunk = slot.out[0]?.chunk;
    if (chunk && slot.received < chunk.rows.length) this.requeue(chunk, slot.received, -1);
    this.pump();
  }

  /** The process died or overran: the row it was on gets `status`, the chunk's other unanswered rows go again. */
  private lose(slot: Slot, status: FailedStatus, meta: Row): void {
    if (!this.slots.delete(slot)) return;
    if (slot.timer) clearTimeout(slot.timer);
    slot.isolate.kill();
    this.requeueWaiting(slot);
    const chunk = slot.out[0]?.chunk;
    if (chunk && slot.received < chunk.rows.length) {
      if (slot.reported || chunk.rows.length - slot.received === 1) {
        this.settle(chunk, slot.received, { status, meta });
        this.requeue(chunk, slot.received, slot.received);
      } else {
        this.requeueOneByOne(chunk, slot.received);
      }
      if (++this.failuresInARow >= MAX_FAILURES_IN_A_ROW) {
        this.tripped ??= { status, meta: { ...meta, skipped: `not sent to the judge: it timed out or crashed ${MAX_FAILURES_IN_A_ROW} times in a row` } };
      }
    }
    this.pump();
  }

  /** The chunks a lost process had queued behind its running one never began: they go again as they were. */
  private requeueWaiting(slot: Slot): void {
    this.queue.unshift(...slot.out.slice(1).map((sent) => sent.chunk));
  }

  private requeueOneByOne(chunk: Chunk, from: number): void {
    const single: Chunk[] = [];
    for (let j = from; j < chunk.rows.length; j++) single.push({ rows: [chunk.rows[j]], jobs: [chunk.jobs[j]], offsets: [chunk.offsets[j]], alone: true });
    this.queue.unshift(...single);
  }

  private requeue(chunk: Chunk, from: number, except: number): void {
    const keep: number[] = [];
    for (let j = from; j < chunk.rows.length; j++) if (j !== except) keep.push(j);
    if (keep.length) this.queue.unshift({ rows: keep.map((j) => chunk.rows[j]), jobs: keep.map((j) => chunk.jobs[j]), offsets: keep.map((j) => chunk.offsets[j]) });
  }
}
