// Gathers single-row judge calls made in the same turn of the event loop into one batch (the rollout loop asks
// row by row; an isolated judge answers fastest a chunk at a time).
type Row = Record<string, unknown>;

const FLUSH_AT = 64;

export function microBatcher<T>(runBatch: (rows: Row[]) => Promise<T[]>): { add(row: Row): Promise<T> } {
  let rows: Row[] = [];
  let waiters: Array<{ resolve(value: T): void; reject(error: unknown): void }> = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const batch = rows;
    const waiting = waiters;
    rows = [];
    waiters = [];
    runBatch(batch).then(
      (results) => waiting.forEach((waiter, i) => waiter.resolve(results[i])),
      (error: unknown) => waiting.forEach((waiter) => waiter.reject(error)),
    );
  };
  return {
    add(row) {
      return new Promise<T>((resolve, reject) => {
        rows.push(row);
        waiters.push({ resolve, reject });
        if (rows.length >= FLUSH_AT) flush();
        else if (!scheduled) {
          scheduled = true;
          setImmediate(() => scheduled && flush());
        }
      });
    },
  };
}

/** Settles with `work`, or rejects as soon as `signal` aborts (the work itself runs on and is dropped). */
export function abortable<T>(work: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(signal.reason ?? new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason ?? new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** judgeBatch for judges with no faster way than one row at a time (rules, LLM: their own concurrency applies). */
export function batchOneByOne<T>(judge: (row: Row, signal?: AbortSignal) => Promise<T>) {
  return (rows: Row[], signal?: AbortSignal): Promise<T[]> => Promise.all(rows.map((row) => judge(row, signal)));
}
