// sha256 hex for the selectors' hashes (behavior signatures, stable tie-breaks): the pure one from shared/stats by
// default, or a faster one a host hands in (main/training gives Node's, some 8x faster on these short texts).
import { sha256Hex } from '../stats/hash';

let impl: (text: string) => string = sha256Hex;

export function sha256(text: string): string {
  return impl(text);
}

/** Sets the implementation; it must give the same hex as sha256Hex (UTF-8 of the text). */
export function useSha256(fn: (text: string) => string): void {
  impl = fn;
}
