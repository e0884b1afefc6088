// Loads a conformance case folder (../shared/conformance beside the checkout) and runs it through the judge invokers.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { compareCase, type ResamplingInfo } from '../../../main/conformance/compare';
import { judgeFunctions } from '../../../main/conformance/judge-functions';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
export const conformanceDir = path.resolve(repoRoot, '../shared/conformance');
export const casesDir = path.join(conformanceDir, 'cases');
export const judgesDir = path.join(conformanceDir, 'judges');

export type Judge = (row: Record<string, unknown>) => Promise<unknown>;

export function readJsonl(file: string): Record<string, unknown>[] {
  return readFileSync(file, 'utf8').split(/\r?\n/).filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, unknown>);
}

export async function loadJudge(name: string): Promise<Judge> {
  const mod = (await import(pathToFileURL(path.join(judgesDir, `${name}.mjs`)).href)) as { default: (row: Record<string, unknown>) => unknown };
  // named like the SDK oracle's judge function, so the stamp name judge_trust compares rows against is the case's
  const judge: Judge = async (row) => mod.default(row);
  Object.defineProperty(judge, 'name', { value: name });
  return judge;
}

function substitute(value: unknown, dir: string, judge: Judge | undefined): unknown {
  if (typeof value === 'string') {
    if (value === '$judge') return judge;
    if (value.startsWith('@')) {
      const name = value.slice(1);
      if (name.endsWith('.json')) return JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
      const file = path.join(dir, `${name}.jsonl`);
      if (existsSync(file)) return readJsonl(file);
    }
    return value;
  }
  if (Array.isArray(value)) return value.map((v) => substitute(v, dir, judge));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, dir, judge)]));
  return value;
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
