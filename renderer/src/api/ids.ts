// Ids the renderer picks for work it may need to name before the engine answers (a job to cancel, an import to follow).
export function newClientId(prefix: string): string {
  const c = globalThis.crypto as Crypto | undefined;
  return c?.randomUUID ? c.randomUUID() : `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
