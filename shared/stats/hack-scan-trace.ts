// The trajectory flags hack_scan's hand tier carries as `trace:<flag>` features (docs/hack-scan.md, "The hand
// tier"): the SDK computes them with trace_flags(row) (sdk-semantics §7.2), in the order they fire. One
// implementation: the markers' own trace flags (shared/stats/markers/trace.ts), read with no tool kinds, as the
// SDK's scan calls it; the names come in the order that function records them (the SDK dict's order).
import type { Row } from './keys';
import { traceFlags } from './markers/trace';

export function traceFlagsOf(row: Row): Iterable<string> {
  return Object.keys(traceFlags(row));
}
