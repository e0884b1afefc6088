// The normal form the SDK groups prompts by: " ".join(s.lower().split()). Python's str methods themselves (split,
// strip, len by code point) are shared/text/py-text.ts's.
import { pySplit } from '../text/py-text';

/** " ".join(s.lower().split()): how the SDK keys prompts for SFT selection and preference pairs. */
export function collapsedLower(s: string): string {
  return pySplit(s.toLowerCase()).join(' ');
}
