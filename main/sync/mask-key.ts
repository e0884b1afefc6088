// A key is never shown whole: every print of one goes through here (platform-api §2.5, as `wai status` masks it).
export function maskKey(key: string | null | undefined): string | null {
  if (!key) return null;
  return key.length > 12 ? `${key.slice(0, 7)}...${key.slice(-4)}` : '***';
}

/** Replaces any While key inside a text (an error message, a server reply) by its mask. */
export function maskKeysIn(text: string): string {
  return text.replace(/zp_[A-Za-z0-9_-]{8,}/g, (key) => maskKey(key) ?? '***');
}
