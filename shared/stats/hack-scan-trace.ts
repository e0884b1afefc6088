// The trajectory flags hack_scan's hand tier carries as `trace:<flag>` features (docs/hack-scan.md, "The hand
// tier"): the SDK computes them with trace_flags(row) (sdk-semantics §7.2), in the order they fire.
//
// SEAM: trace_flags is the markers work's (issue 28, items 1-2), built beside this branch. Until it is merged this
// reads no flags, so a row whose trajectory fires one lacks that feature here. The merge replaces the body below
// with a call of that one implementation (the flag names of a row, in the order the SDK's dict holds them).
import type { Row } from './keys';

export function traceFlagsOf(row: Row): Iterable<string> {
  void row;
  return [];
}
