// Compares an actual conformance output with the SDK's expected.json (rules in shared/conformance/README.md).

export interface ResamplingInfo {
  numeric_fields?: Record<string, { max_abs_dev_from_reference?: number }>;
}

export const NUMBER_TOLERANCE = 1e-9;
export const RESAMPLING_FLOOR = 0.05;

/** Path text in resampling.json's style: `a.b[0]`, `[0][1]`, `metrics.pass_at_1.ci95[0]`. */
export function joinPath(base: string, part: string | number): string {
  if (typeof part === 'number') return `${base}[${part}]`;
  return base ? `${base}.${part}` : part;
}

/** Per-field tolerance for resampled fields: max(0.05, 3 x the largest deviation the SDK showed). */
export function resamplingTolerances(info: ResamplingInfo | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const [field, spread] of Object.entries(info?.numeric_fields ?? {})) {
    out.set(field, Math.max(RESAMPLING_FLOOR, 3 * (spread.max_abs_dev_from_reference ?? 0)));
  }
  return out;
}

function kind(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'list';
  return typeof value;
}

function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? 'undefined' : text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** Every difference that matters between expected and actual, as `path: expected X, got Y` lines. */
export function compareOutputs(expected: unknown, actual: unknown, tolerances: Map<string, number> = new Map(), path = ''): string[] {
  const where = path || '(result)';
  if (typeof expected === 'number') {
    if (typeof actual !== 'number') return [`${where}: expected ${show(expected)}, got ${show(actual)}`];
    const tol = tolerances.get(path);
    const allowed = tol !== undefined ? tol : NUMBER_TOLERANCE * Math.max(1, Math.abs(expected));
    if (Number.isNaN(expected) && Number.isNaN(actual)) return [];
    return Math.abs(expected - actual) <= allowed ? [] : [`${where}: expected ${expected}, got ${actual}${tol !== undefined ? ` (resampled, tolerance ${tol})` : ''}`];
  }
  if (typeof expected === 'string') {
    if (expected === '<call time>') return actual === null || actual === undefined ? [`${where}: expected a time stamp, got ${show(actual)}`] : [];
    if (typeof actual !== 'string') return [`${where}: expected text ${show(expected)}, got ${show(actual)}`];
    if (/\s/.test(expected)) return []; // free text: the app's own wording
    return expected === actual ? [] : [`${where}: expected ${show(expected)}, got ${show(actual)}`];
  }
  if (expected === null || typeof expected === 'boolean') {
    return (actual ?? null) === expected ? [] : [`${where}: expected ${show(expected)}, got ${show(actual)}`];
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [`${where}: expected a list, got ${kind(actual)} ${show(actual)}`];
    if (actual.length !== expected.length) return [`${where}: expected ${expected.length} items, got ${actual.length}: ${show(actual)}`];
    return expected.flatMap((item, i) => compareOutputs(item, actual[i], tolerances, joinPath(path, i)));
  }
  if (typeof expected === 'object') {
    if (kind(actual) !== 'object') return [`${where}: expected an object, got ${kind(actual)} ${show(actual)}`];
    const act = actual as Record<string, unknown>;
    return Object.entries(expected as Record<string, unknown>).flatMap(([key, value]) =>
      key in act ? compareOutputs(value, act[key], tolerances, joinPath(path, key)) : [`${joinPath(path, key)}: missing`],
    );
  }
  return [];
}

/** Compares whole case files ({function, result, aux?} or {function, error}). */
export function compareCase(expected: Record<string, unknown>, actual: Record<string, unknown>, resampling?: ResamplingInfo): string[] {
  if ('error' in expected) {
    return 'error' in actual ? [] : ['expected an error, but the call returned a result'];
  }
  if ('error' in actual) {
    const err = actual.error as { type?: string; message?: string };
    return [`raised ${err.type}: ${err.message}`];
  }
  const tolerances = resamplingTolerances(resampling);
  const problems = compareOutputs(expected.result, actual.result, tolerances, '');
  if (expected.aux !== undefined) problems.push(...compareOutputs(expected.aux, actual.aux, new Map(), 'aux'));
  return problems;
}
