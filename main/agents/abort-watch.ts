// One 'abort' listener per signal, however many requests wait on it (a run's signal is shared by every rollout).

const watchers = new WeakMap<AbortSignal, Set<() => void>>();

/** Calls onAbort when the signal aborts; returns the function that stops watching. */
export function watchAbort(signal: AbortSignal, onAbort: () => void): () => void {
  let callbacks = watchers.get(signal);
  if (!callbacks) {
    const created = new Set<() => void>();
    watchers.set(signal, created);
    signal.addEventListener('abort', () => {
      for (const callback of [...created]) callback();
      created.clear();
    }, { once: true });
    callbacks = created;
  }
  callbacks.add(onAbort);
  const registered = callbacks;
  return () => void registered.delete(onAbort);
}
