// `--judge FILE.mjs`: a JavaScript module whose default export grades one row (sdk-semantics §5.1).
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { JudgeVerdict, RowJudge } from './judge-types';
import { errorText, failed, normalizeJudgeResult, withDeadline } from './normalize-verdict';

export const MODULE_JUDGE_TIMEOUT_MS = 60_000;

type JudgeFn = (row: Record<string, unknown>) => unknown;

function judgeNameOf(fn: JudgeFn, declared: unknown, file: string): string {
  if (typeof declared === 'string' && declared) return declared;
  if (fn.name && fn.name !== 'default' && fn.name !== 'judge' && !fn.name.startsWith('__')) return fn.name;
  return path.basename(file).replace(/\.(mjs|cjs|js)$/i, '');
}

function scaleOf(value: unknown, file: string): [number, number] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length !== 2 || !value.every((n) => typeof n === 'number') || !(value[1] > value[0])) {
    throw new Error(`${file}: \`export const scale\` must be [lo, hi] with hi > lo, e.g. [1, 5]`);
  }
  return [value[0], value[1]];
}

/**
 * The module: `export default (row) => reward | {reward, reason?, markers?}` (sync or async). Optional
 * `export const name = '...'` and `export const scale = [1, 5]` (a Likert rating mapped to 0..1).
 * A throw gives judge_status error, a timeout timeout, anything unusable invalid_result or missing_reward.
 */
export async function loadModuleJudge(file: string, options: { timeoutMs?: number } = {}): Promise<RowJudge> {
  const absolute = path.resolve(file);
  if (!fs.existsSync(absolute)) throw new Error(`judge file ${file} does not exist`);
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(absolute).href)) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`could not load judge ${file}: ${errorText(error)}`);
  }
  const fn = (typeof module.default === 'function' ? module.default : module.judge) as JudgeFn | undefined;
  if (typeof fn !== 'function') throw new Error(`${file} must export a default function (row) => reward or {reward, markers}`);
  const name = judgeNameOf(fn, module.name, file);
  const scale = scaleOf(module.scale, file);
  const timeoutMs = options.timeoutMs ?? MODULE_JUDGE_TIMEOUT_MS;

  return {
    name,
    async judge(row, signal): Promise<JudgeVerdict> {
      const outcome = await withDeadline(() => fn(structuredClone(row)), timeoutMs, signal);
      if (!outcome.ok) {
        return outcome.timedOut ? failed(name, 'timeout', { timeout_s: timeoutMs / 1000 }) : failed(name, 'error', { error: errorText(outcome.error) });
      }
      return normalizeJudgeResult(outcome.value, name, scale);
    },
  };
}
