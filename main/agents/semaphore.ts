// A counting semaphore: caps how many requests are in flight across every rollout that shares it.
import { watchAbort } from './abort-watch';

export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new Error(`concurrency must be a whole number of at least 1 (got ${limit})`);
  }

  get inFlight(): number {
    return this.active;
  }

  /** Waits for a slot; rejects (and gives up its place) when the signal aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason ?? new Error('aborted'));
    if (this.active < this.limit) {
      this.active++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      let unwatch = () => {};
      const grant = () => {
        unwatch();
        this.active++;
        resolve(this.releaser());
      };
      if (signal) {
        unwatch = watchAbort(signal, () => {
          const index = this.waiting.indexOf(grant);
          if (index >= 0) this.waiting.splice(index, 1);
          reject(signal.reason ?? new Error('aborted'));
        });
      }
      this.waiting.push(grant);
    });
  }

  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(signal);
    try {
      return await work();
    } finally {
      release();
    }
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      const next = this.waiting.shift();
      if (next) next();
    };
  }
}
