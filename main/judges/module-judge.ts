// `--judge FILE.mjs`: a JavaScript module whose default export grades one row (sdk-semantics §5.1), run in
// processes of its own (judge-pool.ts): the engine only ever sees the value it returned, normalised here, once.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RUN_DEFAULTS } from '../../shared/schema/run-settings';
import { JudgeLoadError } from './judge-isolate';
import { JudgePool } from './judge-pool';
import type { RowOutcome } from './judge-protocol';
import type { JudgeVerdict, RowJudge } from './judge-types';
import { abortable, microBatcher } from './micro-batch';
import { failed, normalizeJudgeResult } from './normalize-verdict';
import { syntaxLocation } from './syntax-location';

/** Loading (import and top-level code) gets at least this long, whatever the per-row deadline. */
export const JUDGE_LOAD_TIMEOUT_MS = 10_000;
export const JUDGE_HEAP_MB = 512;

export interface ModuleJudgeOptions {
  /** Per row (default RUN_DEFAULTS.judge_timeout_s). */
  timeoutMs?: number;
  loadTimeoutMs?: number;
  heapMb?: number;
  /** Judge processes at most (default: one per spare core, up to 4). */
  workers?: number;
}

function judgeNameOf(declared: string | null, fnName: string, file: string): string {
  if (declared) return declared;
  if (fnName && fnName !== 'default' && fnName !== 'judge' && !fnName.startsWith('__')) return fnName;
  return path.basename(file).replace(/\.(mjs|cjs|js)$/i, '');
}

function scaleOf(value: unknown, file: string): [number, number] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length !== 2 || !value.every((n) => typeof n === 'number') || !(value[1] > value[0])) {
    throw new Error(`${file}: \`export const scale\` must be [lo, hi] with hi > lo, e.g. [1, 5]`);
  }
  return [value[0], value[1]];
}

export function defaultJudgeWorkers(): number {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return Math.max(1, Math.min(4, cores - 1));
}

/**
 * The module: `export default (row) => reward | {reward, reason?, markers?}` (sync or async). Optional
 * `export const name = '...'` and `export const scale = [1, 5]` (a Likert rating mapped to 0..1).
 * Loaded and checked here (a missing file, a syntax error with line:column, a throw at load, no default export
 * are refused with an Error naming the file). Per row: a throw gives `error`, an overrun `timeout`, a dead
 * process (process.exit, out of memory) `crashed`, anything unusable `invalid_result` or `missing_reward`.
 */
export async function loadModuleJudge(file: string, options: ModuleJudgeOptions = {}): Promise<RowJudge> {
  const absolute = path.resolve(file);
  if (!fs.existsSync(absolute)) throw new Error(`judge file ${file} does not exist`);
  if (!fs.statSync(absolute).isFile()) throw new Error(`judge ${file} is not a file`);
  const timeoutMs = options.timeoutMs ?? RUN_DEFAULTS.judge_timeout_s * 1000;
  const heapMb = options.heapMb ?? JUDGE_HEAP_MB;
  let pool: JudgePool;
  try {
    pool = await JudgePool.start({ file: absolute, heapMb, timeoutMs, loadTimeoutMs: options.loadTimeoutMs ?? Math.max(JUDGE_LOAD_TIMEOUT_MS, timeoutMs), size: options.workers ?? defaultJudgeWorkers() });
  } catch (error) {
    if (!(error instanceof JudgeLoadError)) throw error;
    if (error.syntax) {
      const where = syntaxLocation(absolute);
      throw new Error(`judge ${where ?? file} has a syntax error: ${error.message.replace(/^SyntaxError: /, '')}`);
    }
    throw new Error(`could not load judge ${file}: ${error.message}`);
  }
  let scale: [number, number] | undefined;
  try {
    scale = scaleOf(pool.info.scale, file);
  } catch (error) {
    await pool.close();
    throw error;
  }
  const name = judgeNameOf(pool.info.declaredName, pool.info.fnName, absolute);
  const verdictOf = (outcome: RowOutcome): JudgeVerdict => ('value' in outcome ? normalizeJudgeResult(outcome.value, name, scale) : failed(name, outcome.status, outcome.meta));
  const batcher = microBatcher((rows: Array<Record<string, unknown>>) => pool.run(rows));
  return {
    name,
    judge: async (row, signal) => verdictOf(await abortable(batcher.add(row), signal)),
    judgeBatch: async (rows, signal) => (await abortable(pool.run(rows), signal)).map(verdictOf),
    judgeJson: async (texts, signal) => (await abortable(pool.runTexts(texts), signal)).map(verdictOf),
    close: () => pool.close(),
  };
}
