// Loads a conformance case folder (../shared/conformance beside the checkout) and runs it through the judge invokers.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareCase, type ResamplingInfo } from '../../../main/conformance/compare';
import { judgeFunctions } from '../../../main/conformance/judge-functions';
import { loadJudge as loadCaseJudge, substitute } from '../../../main/conformance/run-cases';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const conformanceDir = path.resolve(repoRoot, 'test/fixtures/conformance');
export const casesDir = path.join(conformanceDir, 'cases');
export const judgesDir = path.join(conformanceDir, 'judges');

export type Judge = (row: Record<string, unknown>) => Promise<unknown>;

export function readJsonl(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8').split(/\r?\n/).filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** The conformance runner's own judge loader (named after the case's judge, as the SDK names it). */
export function loadJudge(name: string): Promise<Judge> {
  return loadCaseJudge(judgesDir, name);
}

/** Runs one case and returns {actual, problems} compared with expected.json by the README's rules. */
export async function runJudgeCase(name: string): Promise<{ actual: Record<string, unknown>; expected: Record<string, unknown>; problems: string[] }> {
  const dir = path.join(casesDir, name);
  const spec = JSON.parse(readFileSync(path.join(dir, 'case.json'), 'utf8')) as { function: string; call: { args?: unknown[]; kwargs?: Record<string, unknown> }; judge?: { name: string } };
  const judge = spec.judge ? await loadJudge(spec.judge.name) : undefined;
  const invoker = judgeFunctions[spec.function];
  let actual: Record<string, unknown>;
  try {
    const args = substitute(spec.call.args ?? [], dir, judge) as unknown[];
    const kwargs = substitute(spec.call.kwargs ?? {}, dir, judge) as Record<string, unknown>;
    const out = await invoker({ args, kwargs }, { judge });
    actual = { function: spec.function, result: out.result };
  } catch (error) {
    const err = error as Error & { pythonType?: string };
    actual = { function: spec.function, error: { type: err.pythonType ?? err.name, message: err.message } };
  }
  const expected = JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Record<string, unknown>;
  const resamplingFile = path.join(dir, 'resampling.json');
  const resampling = existsSync(resamplingFile) ? (JSON.parse(readFileSync(resamplingFile, 'utf8')) as ResamplingInfo) : undefined;
  // JSON round trip, as actual.json would be written
  actual = JSON.parse(JSON.stringify(actual)) as Record<string, unknown>;
  return { actual, expected, problems: compareCase(expected, actual, resampling) };
}
