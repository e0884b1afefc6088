// The statistics core (shared/stats) as the jobs call it: one place that binds names and loosens types.
import { compareRuns as compareRunsImpl } from '../../shared/stats/compare-runs';
import { curriculum as curriculumImpl } from '../../shared/stats/curriculum';
import { decontaminate as decontaminateImpl } from '../../shared/stats/decontaminate';
import { deltaReport as deltaReportImpl } from '../../shared/stats/delta-report';
import { judgeTrust as judgeTrustImpl } from '../../shared/stats/judge-trust';
import { passAt as passAtImpl } from '../../shared/stats/pass-at';
import { holdoutSize as holdoutSizeImpl } from '../../shared/stats/sizing';
import { evalVariance as evalVarianceImpl } from '../../shared/stats/variance';

type Obj = Record<string, unknown>;
export type JudgeFn = (row: Obj) => Promise<unknown>;

const loose = <T>(fn: T) => fn as unknown as (...args: any[]) => any;

export const passAt = (rows: unknown[], options: Obj): Obj => toPlain(loose(passAtImpl)(rows, options));
export const curriculum = (rows: unknown[], options: Obj): Obj => toPlain(loose(curriculumImpl)(rows, options));
export const compareRuns = (a: unknown[], b: unknown[], options: Obj): Obj => toPlain(loose(compareRunsImpl)(a, b, options));
export const deltaReport = (before: unknown[], after: unknown[], options: Obj): Obj => toPlain(loose(deltaReportImpl)(before, after, options));
export const evalVariance = (runs: unknown[][], options: Obj): Obj => toPlain(loose(evalVarianceImpl)(runs, options));
export function holdoutSize(options: Obj): Obj {
  const { effect, ...rest } = options;
  return toPlain(loose(holdoutSizeImpl)(effect, rest));
}
export const judgeTrust = async (rows: unknown[], options: Obj): Promise<Obj> => toPlain(await loose(judgeTrustImpl)(rows, options));

export function decontaminate(rows: unknown[], against: unknown, options: Obj): { report: Obj; kept_indices: number[] } {
  const result = toPlain(loose(decontaminateImpl)(rows, against, options));
  return { report: result.report as Obj, kept_indices: result.kept_indices as number[] };
}

/** A report as plain data (a class instance or one with a toDict/toJSON becomes its dict). */
function toPlain(value: unknown): Obj {
  const v = value as { toDict?: () => Obj; to_dict?: () => Obj };
  if (typeof v?.toDict === 'function') return { ...v.toDict(), per_task: (value as Obj).per_task };
  if (typeof v?.to_dict === 'function') return { ...v.to_dict(), per_task: (value as Obj).per_task };
  return value as Obj;
}
