// Waiting for a job of the engine (a run, a sweep) with an optional deadline: one helper for every `*.wait` method.

/** Resolves true once `done` settles (either way), or false when timeoutS passes first; with no timeout, only true. */
export async function settledWithin(done: Promise<unknown>, timeoutS?: number): Promise<boolean> {
  if (timeoutS === undefined) {
    await done.catch(() => undefined);
    return true;
  }
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutS * 1000)));
  try {
    return await Promise.race([done.then(() => true, () => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
