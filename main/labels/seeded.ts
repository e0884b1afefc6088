// A small seeded random source for queue orders: the same dataset id always gives the same order (FNV-1a of the
// id seeds mulberry32). Not the SDK's Random: no SDK number depends on a queue's order.
export function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher-Yates in place with the given source. */
export function shuffle<T extends unknown[] | Int32Array>(items: T, random: () => number): T {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const kept = items[i];
    items[i] = items[j];
    items[j] = kept;
  }
  return items;
}
