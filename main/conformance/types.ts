// Conformance runner contract: one case function = one CaseInvoker (see shared/conformance/README.md).

/** A judge loaded from a `.mjs` file: takes a row (a pairwise judge two), returns a reward (0..1) or {reward, markers}. */
export type ConformanceJudge = (row: Record<string, unknown>, ...more: Array<Record<string, unknown>>) => Promise<unknown>;

/** Calls one statistics function with a case's (already substituted) args and kwargs. */
export type CaseInvoker = (
  call: { args: unknown[]; kwargs: Record<string, unknown> },
  env: { judge?: ConformanceJudge; platform?: unknown },
) => Promise<{ result: unknown; aux?: unknown }>;
