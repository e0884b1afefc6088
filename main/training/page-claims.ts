// Which converter takes which page of a threaded training export: the engine thread and the conversion threads
// claim the next page from one shared counter, so a busy or slow thread takes fewer pages (a fixed split left one of
// two threads idle for a tenth of the export). Nobody claims more than AHEAD pages past the last one written, so the
// pages waiting for the writer stay few.

const NEXT = 0; // the next page not yet claimed
const WRITTEN = 1; // pages written so far, in order
const STOP = 2; // set when the export ends early: threads stop claiming
const PAGES = 3; // how many pages there are

// Made larger (12), it neither helped nor hurt (100k bench rows, 3.45-3.80 s against 3.44-3.47 s).
export const AHEAD = 4;

export class PageClaims {
  readonly cells: Int32Array;

  /** Claims over `pages` pages, or the ones another thread made (their shared memory). */
  constructor(pages: SharedArrayBuffer | number) {
    if (typeof pages !== 'number') this.cells = new Int32Array(pages);
    else {
      this.cells = new Int32Array(new SharedArrayBuffer(4 * 4));
      this.cells[PAGES] = pages;
    }
  }

  get shared(): SharedArrayBuffer {
    return this.cells.buffer as SharedArrayBuffer;
  }

  get pages(): number {
    return this.cells[PAGES];
  }

  get stopped(): boolean {
    return Atomics.load(this.cells, STOP) !== 0;
  }

  /**
   * The next page to convert, 'later' when it is too far past the writer, or null when every page is claimed (or the
   * export stopped).
   */
  claim(): number | 'later' | null {
    const { cells } = this;
    for (;;) {
      if (this.stopped) return null;
      const page = Atomics.load(cells, NEXT);
      if (page >= this.pages) return null;
      if (page >= Atomics.load(cells, WRITTEN) + AHEAD) return 'later';
      if (Atomics.compareExchange(cells, NEXT, page, page + 1) === page) return page;
    }
  }

  /** A conversion thread's wait for the writer to move (bounded, so a stop is seen). */
  awaitWriter(): void {
    Atomics.wait(this.cells, WRITTEN, Atomics.load(this.cells, WRITTEN), 50);
  }

  /** The writer has written `count` pages: wakes the threads waiting to claim. */
  written(count: number): void {
    Atomics.store(this.cells, WRITTEN, count);
    Atomics.notify(this.cells, WRITTEN);
  }

  stop(): void {
    Atomics.store(this.cells, STOP, 1);
    Atomics.notify(this.cells, WRITTEN);
  }
}
