// What one statistic declares, once: its name on every surface, its row sources, its parameters and report (zod),
// the row fields it reads, and the pure function that computes it. The API, the worker job, the CLI flags and the
// conformance binding are all read from these declarations (registry/index.ts).
//
// `reads` is required: the top-level row fields the statistic reads, or 'row' for whole rows, or a function of the
// job's params and options that says either (delta_report reads the field its `by` names). The readers of rows (a
// dataset's, main/rows/read.ts, and a JSONL file's, main/stats-workers/file-rows.ts) hand the statistic only those
// fields, stepping over the rest of each row's JSON unparsed (main/rows/row-projection.ts); the conformance runner
// hands it the same projection, and test/unit/stats/row-reads.test.ts checks on every case and on rows that carry
// every field that each statistic gives the same output on its projected rows as on whole ones. A field read but not
// declared is simply absent from the rows a statistic receives, so declare every field the code (and the code it
// calls: task keys, readers, run config) reads; declare 'row' where rows go to user code (a judge) or where the
// fields read are named by the data itself.
//
// zod is imported as a type only: the schemas are built by `schemas(z)` where they are needed (the API), so a
// statistics worker, which runs `compute` alone, never loads zod (it costs a cold worker some 50 ms).
import type { z } from '../../schema/zod';

export type Zod = typeof z;
type Obj = Record<string, unknown>;

/** One named set of rows a statistic reads. */
export interface SourceSpec {
  /** The key in the API input (`dataset_id`, `a`, `before`, `dataset_ids`, `against`). */
  key: string;
  /** The name the computation reads it by (`rows`, `a`, `before`, `runs`, `against`). */
  as: string;
  /** A list of row sets (eval-variance's runs, decontaminate's evaluation sets). */
  many?: boolean;
  optional?: boolean;
  /** On the command line: a positional argument (default) or a `--flag` (repeatable when `many`). */
  cli?: 'positional' | 'flag';
  /** Other flag names for the same source (holdout-size `--rows` for `--before`). */
  aliases?: readonly string[];
  /** Shown in `--help` and in the API's messages. */
  describe: string;
}

/** How a command-line flag's text becomes a value, where the zod type alone does not say. */
export type FlagKind = 'int' | 'number' | 'bool' | 'string' | 'list' | 'pair' | 'int-or-null' | 'by' | 'probes' | 'number-or-map' | 'json';

export interface StatSchemas {
  /** The SDK's keyword arguments, snake_case, with the API's ranges. Passed to the function as given. */
  params: z.ZodObject;
  /** Settings of this surface that are not SDK arguments (per_task, list_limit, the judge file). */
  options?: z.ZodObject;
  /** What the job returns beside its job id: usually `{ report }`, plus extras some screens read. */
  output: z.ZodObject;
}

/**
 * What of each row a statistic reads: top-level field names (the rows it receives hold only those of them a row has),
 * 'row' for whole rows, or which of these the job's params and options call for.
 */
export type RowReads = readonly string[] | 'row' | ((input: FoldInput) => readonly string[] | 'row');

/** The fields a statistic reads for this input: a sorted list without repeats, or 'row'. */
export function readsFor(reads: RowReads, input: FoldInput): readonly string[] | 'row' {
  const named = typeof reads === 'function' ? reads(input) : reads;
  return named === 'row' ? 'row' : [...new Set(named)].sort();
}

/** A job's reads as one string (a cache key: rows projected for one list are not another's). */
export function readsKey(reads: readonly string[] | 'row'): string {
  return reads === 'row' ? 'row' : reads.join('\u0000');
}

/** A judge the worker loaded for the job (judge_trust): a row -> a reward or {reward, markers}. */
export type JudgeFn = (row: Obj) => Promise<unknown>;

export interface ComputeInput {
  /** Rows per source name (`as`); a list of row sets for `many` sources; absent optional sources are undefined. */
  sources: Record<string, unknown[] | unknown[][] | undefined>;
  params: Obj;
  options: Obj;
  judge?: JudgeFn;
}

/** What a fold may read besides its rows: the job's params and options. */
export type FoldInput = Omit<ComputeInput, 'sources' | 'judge'>;

/**
 * A statistic that can read its row sources a row at a time: the worker then folds each file or dataset as it
 * parses it (no row objects kept), each source in a thread of its own and large ones in two halves. `compute` on
 * the rows and `fromFold` on their folds give the same output; a fold is plain data (structured clone) and the
 * folds of consecutive parts merge, in order, into the fold of all their rows.
 */
export interface RowFold<State = unknown> {
  /** The sources folded (their `as` names), each into a fold of its own; every other input is params and options. */
  sources: readonly string[];
  /** A new, empty fold. It may read the params (delta_report folds what its options call for), never the rows. */
  start(input: FoldInput): State;
  add(state: State, row: unknown): void;
  /** The fold of `earlier`'s rows followed by `later`'s (may write into `earlier`). */
  merge(earlier: State, later: State): State;
  fromFold(states: Record<string, State>, input: FoldInput): object;
  /** false: this job is computed on its rows instead (delta_report's balance_rollouts trims both sides together). */
  applies?(input: FoldInput): boolean;
  /**
   * What `start` reads of the input, as a string: two folds started with the same key are interchangeable (the
   * CLI folds a file ahead, before its flags are parsed, and the job takes that fold only when the keys agree).
   * Absent: start reads nothing of it.
   */
  startKey?(input: FoldInput): string;
  /**
   * The key a dataset's fold for this input is kept under (shared/stats/kept-folds.ts), or null when it is not
   * kept. Absent: this statistic's folds are never kept.
   */
  keepKey?(input: FoldInput): string | null;
  /**
   * Fields of `reads` the fold reads for few rows only (pass_at reads `messages` where a row's final_text is blank),
   * and by plain property access (row.name): a fold's rows hold them as getters that look in the row's text on first
   * read, so the reader steps over them with the members it skips rather than stopping at each (row-projection.ts).
   */
  rarely?: readonly string[] | ((input: FoldInput) => readonly string[]);
}

/** A fold's start key for this input ('' when its start reads nothing of it). */
export function foldStartKey(fold: RowFold, input: FoldInput): string {
  return fold.startKey?.(input) ?? '';
}

/** A fold started for one job: what reads rows into it needs nothing else (row-reader, file-rows, helper threads). */
export interface BoundFold<State = unknown> {
  start(): State;
  add(state: State, row: unknown): void;
  merge(earlier: State, later: State): State;
  /** Where a whole dataset's fold is kept (kept-folds.ts); null: it is not. */
  keepKey: string | null;
  /** The row fields the fold reads (its statistic's `reads` for this input). */
  reads: readonly string[] | 'row';
  /** Those of `reads` it reads for few rows (RowFold.rarely); empty for whole rows. */
  rarely: readonly string[];
}

/** The statistic's fold started for this input (the statistic must have one). */
export function bindFold<State>(stat: Pick<Statistic, 'fold' | 'reads'>, input: FoldInput): BoundFold<State> {
  const fold = stat.fold as RowFold<State> | undefined;
  if (!fold) throw new Error('this statistic has no fold');
  const reads = readsFor(stat.reads, input);
  const named = typeof fold.rarely === 'function' ? fold.rarely(input) : (fold.rarely ?? []);
  const rarely = reads === 'row' ? [] : named.filter((name) => reads.includes(name));
  return { start: () => fold.start(input), add: fold.add, merge: fold.merge, keepKey: fold.keepKey?.(input) ?? null, reads, rarely };
}

export interface Statistic<
  N extends string = string,
  M extends string = string,
  S extends StatSchemas = StatSchemas,
  Src extends readonly SourceSpec[] = readonly SourceSpec[],
> {
  /** The job kind and the conformance function name: the SDK's name (`pass_at`, `compare_runs`). */
  name: N;
  /** The typed API method (`stats.passAt`). */
  method: M;
  /** The `while-desk stats` subcommand (`pass-at`). */
  command: string;
  summary: string;
  sources: Src;
  /** The SDK's positional parameter names in order (binds conformance cases); `*name` takes the rest. */
  positional: readonly string[];
  /**
   * The top-level row fields `compute` and `fold` read (the header says how they are used): required, so that a new
   * statistic states them. 'row' hands it whole rows.
   */
  reads: RowReads;
  /** Flag kinds that differ from what the parameter's zod type implies. */
  flags?: Readonly<Record<string, FlagKind>>;
  schemas(zod: Zod): S;
  /**
   * The pure function, on resolved rows. Its result must parse with `output` (the report interfaces of
   * shared/stats carry no index signature, so this is checked where outputs are: engine option checkOutputs).
   */
  compute(input: ComputeInput): object | Promise<object>;
  /** How to compute it from rows read one at a time (pass_at), when it can be. */
  fold?: RowFold;
  /** What the SDK function returns, from the job output, when it is not `{ result: report }` (`--json` prints it; conformance compares it). */
  sdkResult?(output: Record<string, unknown>): { result: unknown; aux?: unknown };
}

/** Declares a statistic (an identity function that keeps the literal types the API is derived from). */
export function statistic<const N extends string, const M extends string, S extends StatSchemas, const Src extends readonly SourceSpec[]>(
  spec: Statistic<N, M, S, Src>,
): Statistic<N, M, S, Src> {
  return spec;
}

/** Declares a statistic's fold with its state type checked (stored untyped on the statistic). */
export function rowFold<State>(fold: RowFold<State>): RowFold {
  return fold as unknown as RowFold;
}

/** Rows of a single source (the registry's compute functions call it; a missing one is a bug of the caller). */
export function rowsOf(input: ComputeInput, name: string): unknown[] {
  const rows = input.sources[name];
  if (!Array.isArray(rows)) throw new Error(`the ${name} rows are missing`);
  return rows as unknown[];
}

/** Row sets of a `many` source. */
export function rowSetsOf(input: ComputeInput, name: string): unknown[][] {
  const sets = input.sources[name];
  if (!Array.isArray(sets)) throw new Error(`the ${name} row sets are missing`);
  return sets as unknown[][];
}

/** Shared zod pieces of the parameter declarations. */
export function common(zod: Zod) {
  const between = (low: number, high: number, open: 'open' | 'closed' = 'closed') => {
    const words = open === 'open' ? `strictly between ${low} and ${high}` : `between ${low} and ${high}`;
    const base = zod.number({ error: 'must be a number' });
    return open === 'open'
      ? base.gt(low, `must be ${words}`).lt(high, `must be ${words}`)
      : base.min(low, `must be ${words}`).max(high, `must be ${words}`);
  };
  return {
    between,
    /** A probability-like parameter in (0, 1): effect, power, alpha, level. */
    unitOpen: () => between(0, 1, 'open'),
    /** A share or threshold in [0, 1]. */
    unit: () => between(0, 1),
    atLeast: (low: number) => zod.number({ error: 'must be a whole number' }).int('must be a whole number').min(low, `must be at least ${low}`),
    nonNegative: () => zod.number({ error: 'must be a number' }).min(0, 'must be 0 or more'),
    seed: () => zod.number().int('must be a whole number'),
    interval: () => zod.array(zod.number()).nullable(),
    text: () => zod.string(),
  };
}
