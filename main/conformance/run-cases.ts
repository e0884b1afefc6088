// Runs conformance case folders: substitutes inputs, calls the function, writes actual.json, compares with expected.json.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { keepKeyOrder, parseOrderedJson } from '../../shared/text/ordered-json';
import { compareCase, type ResamplingInfo } from './compare';
import { parsePyJson } from '../../shared/schema/py-json';
import { caseFunctions, pythonFloatFunctions } from './functions';
import type { ConformanceJudge } from './types';

export interface CaseOutcome {
  name: string;
  function: string;
  status: 'passed' | 'failed' | 'ran';
  problems: string[];
}

interface CallSpec {
  args?: unknown[];
  kwargs?: Record<string, unknown>;
}

interface CaseFile {
  case?: string;
  function: string;
  call?: CallSpec;
  calls?: CallSpec[];
  judge?: { name: string };
  /** What the platform holds for the call (e.g. `platform.behaviors` for noise_floor). */
  platform?: unknown;
}

/** `parse`: parseOrderedJson (Python's key order kept), or parsePyJson where a function writes rows back and must keep `1.0` apart from `1`. */
function readJsonl(file: string, parse: (text: string) => unknown = parseOrderedJson): unknown[] {
  const rows: unknown[] = [];
  readFileSync(file, 'utf8').split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    try {
      rows.push(parse(line));
    } catch (error) {
      throw new Error(`${file}:${i + 1}: not valid JSON (${(error as Error).message})`);
    }
  });
  return rows;
}

export async function loadJudge(judgesDir: string, name: string): Promise<ConformanceJudge> {
  const file = path.join(judgesDir, `${name}.mjs`);
  if (!existsSync(file)) throw new Error(`judge "${name}" not found: expected ${file}; pass --judges with the folder holding ${name}.mjs`);
  const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
  if (typeof mod.default !== 'function') throw new Error(`${file} has no default export function; export default (row) => reward`);
  const fn = mod.default as (...rows: Array<Record<string, unknown>>) => unknown;
  // Every argument goes through: a pairwise judge takes two rows (judge_pairs).
  const judge: ConformanceJudge = async (...rows) => fn(...rows);
  // judge_trust names a judge after its function, as the SDK does with __name__: keep the case's judge name.
  Object.defineProperty(judge, 'name', { value: name });
  return judge;
}

/** Applies `@name` (rows of name.jsonl), `@name.json` (its JSON) and `$judge` recursively. */
export function substitute(value: unknown, caseDir: string, judge: ConformanceJudge | undefined, parse: (text: string) => unknown = parseOrderedJson): unknown {
  if (typeof value === 'string') {
    if (value === '$judge') {
      if (!judge) throw new Error(`${caseDir}: "$judge" is used but case.json names no judge`);
      return judge;
    }
    if (value.startsWith('@') && value.length > 1) {
      const name = value.slice(1);
      if (name.endsWith('.json')) return parseOrderedJson(readFileSync(path.join(caseDir, name), 'utf8'));
      const file = path.join(caseDir, `${name}.jsonl`);
      if (existsSync(file)) return readJsonl(file, parse);
    }
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, caseDir, judge, parse));
  if (value && typeof value === 'object') {
    // Each object keeps the key order its file wrote (Python's order: integer-like keys are not moved first).
    return keepKeyOrder(value, Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, caseDir, judge, parse)])));
  }
  return value;
}

function errorOutput(fn: string, error: unknown): Record<string, unknown> {
  const err = error as Error & { pythonType?: string };
  return { function: fn, error: { type: err.pythonType ?? err.name ?? 'Error', message: err.message ?? String(error) } };
}

/** Runs one case folder and writes `<outDir>/<case>/actual.json`. */
export async function runCase(caseDir: string, judgesDir: string, outDir: string): Promise<CaseOutcome> {
  const name = path.basename(caseDir);
  const spec = parseOrderedJson(readFileSync(path.join(caseDir, 'case.json'), 'utf8')) as CaseFile;
  const fn = spec.function;
  let actual: Record<string, unknown>;
  const invoker = caseFunctions[fn];
  if (!invoker) {
    return { name, function: fn, status: 'failed', problems: [`no conformance function "${fn}" (main/conformance/functions.ts)`] };
  }
  try {
    const judge = spec.judge ? await loadJudge(judgesDir, spec.judge.name) : undefined;
    const env = { judge, platform: spec.platform };
    const parse = pythonFloatFunctions.has(fn) ? parsePyJson : parseOrderedJson;
    const one = async (call: CallSpec) => {
      const args = substitute(call.args ?? [], caseDir, judge, parse) as unknown[];
      const kwargs = substitute(call.kwargs ?? {}, caseDir, judge, parse) as Record<string, unknown>;
      return invoker({ args, kwargs }, env);
    };
    if (spec.calls) {
      const results: unknown[] = [];
      for (const call of spec.calls) results.push((await one(call)).result);
      actual = { function: fn, result: results };
    } else {
      const out = await one(spec.call ?? {});
      actual = { function: fn, result: out.result, ...(out.aux !== undefined ? { aux: out.aux } : {}) };
    }
  } catch (error) {
    actual = errorOutput(fn, error);
  }
  actual = JSON.parse(JSON.stringify(actual)) as Record<string, unknown>; // as written: a boxed float (py-json) is a number
  mkdirSync(path.join(outDir, name), { recursive: true });
  writeFileSync(path.join(outDir, name, 'actual.json'), `${JSON.stringify(actual, null, 1)}\n`);

  const expectedFile = path.join(caseDir, 'expected.json');
  if (!existsSync(expectedFile)) return { name, function: fn, status: 'ran', problems: [] };
  const expected = JSON.parse(readFileSync(expectedFile, 'utf8')) as Record<string, unknown>;
  const resamplingFile = path.join(caseDir, 'resampling.json');
  const resampling = existsSync(resamplingFile) ? (JSON.parse(readFileSync(resamplingFile, 'utf8')) as ResamplingInfo) : undefined;
  const problems = compareCase(expected, actual, resampling);
  return { name, function: fn, status: problems.length ? 'failed' : 'passed', problems };
}

/** Every case folder (holding a case.json) under `casesDir`, sorted by name. */
export function listCases(casesDir: string): string[] {
  if (!existsSync(casesDir)) throw new Error(`cases folder not found: ${casesDir}`);
  return readdirSync(casesDir)
    .map((entry) => path.join(casesDir, entry))
    .filter((dir) => statSync(dir).isDirectory() && existsSync(path.join(dir, 'case.json')))
    .sort();
}

export async function runCases(casesDir: string, judgesDir: string, outDir: string): Promise<CaseOutcome[]> {
  const outcomes: CaseOutcome[] = [];
  for (const dir of listCases(casesDir)) outcomes.push(await runCase(dir, judgesDir, outDir));
  return outcomes;
}

/** One line per failing case: `FAIL <case> (<function>): <first problems>`. */
export function failureLine(outcome: CaseOutcome): string {
  const shown = outcome.problems.slice(0, 3).join('; ');
  const more = outcome.problems.length > 3 ? ` (+${outcome.problems.length - 3} more)` : '';
  return `FAIL ${outcome.name} (${outcome.function}): ${shown}${more}`;
}
