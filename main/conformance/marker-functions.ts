// The marker functions that stamp rows (or read one row) rather than report on a row set, under the SDK's names
// (docs/markers.md): style_markers, trace_markers, mark_grounding return the rows as the SDK does (the first two
// stamp them in place, mark_grounding copies); trace_flags and ungrounded_arguments read one row. The reports
// (style_report, ...) are registry statistics and are bound from their declarations (functions.ts).
import { argumentGrounding, markGrounding, ungroundedArguments, type GroundingOptions } from '../../shared/stats/markers/grounding';
import { styleMarkers } from '../../shared/stats/markers/style';
import { traceFlags, traceMarkers, type Kinds } from '../../shared/stats/markers/trace';
import type { CaseInvoker } from './types';

type Kw = Record<string, unknown>;

/** Positional arguments by the SDK's names, then the keyword arguments over them. */
function named(names: string[], call: { args: unknown[]; kwargs: Kw }): Kw {
  const out: Kw = {};
  call.args.forEach((value, i) => {
    if (i >= names.length) throw new Error(`too many positional arguments (${call.args.length}) for (${names.join(', ')})`);
    out[names[i]] = value;
  });
  return { ...out, ...call.kwargs };
}

const rowsArg = (value: unknown): unknown[] => {
  if (!Array.isArray(value)) throw new Error('rows must be a list of rows');
  return value;
};

const rowArg = (value: unknown): Record<string, unknown> => {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('row must be an object');
  return value as Record<string, unknown>;
};

const grounding = (kw: Kw): GroundingOptions => ({
  ignore_keys: kw.ignore_keys as string[] | undefined,
  allow: kw.allow as unknown[] | undefined,
  min_len: kw.min_len as number | undefined,
});

export const markerFunctions: Record<string, CaseInvoker> = {
  style_markers: async (call) => {
    const kw = named(['rows'], call);
    return { result: styleMarkers(rowsArg(kw.rows), { phrases: kw.phrases as Record<string, unknown[]> | null | undefined }) };
  },
  trace_markers: async (call) => {
    const kw = named(['rows'], call);
    return { result: traceMarkers(rowsArg(kw.rows), { kinds: kw.kinds as Kinds, evidence: kw.evidence as boolean | undefined }) };
  },
  trace_flags: async (call) => {
    const kw = named(['row'], call);
    return { result: traceFlags(rowArg(kw.row), kw.kinds as Kinds) };
  },
  mark_grounding: async (call) => {
    const kw = named(['rows'], call);
    return { result: markGrounding(rowsArg(kw.rows), grounding(kw)) };
  },
  ungrounded_arguments: async (call) => {
    const kw = named(['row'], call);
    return { result: ungroundedArguments(rowArg(kw.row), grounding(kw)) };
  },
  argument_grounding: async (call) => {
    const kw = named(['row'], call);
    return { result: argumentGrounding(rowArg(kw.row), grounding(kw)) };
  },
};
