// The process a module judge runs in (bundled as out/engine/judge-child.mjs, forked with its own V8 heap limit):
// loads the user's module, then judges the chunks of rows the engine sends, one row at a time. A process, not a
// thread, so that nothing the judge does (a memory bomb that ends V8, process.abort, an endless loop) can reach
// the engine: the engine's watchdog kills this process when a row overruns its deadline.
import { pathToFileURL } from 'node:url';
import { errorText } from './error-text';
import type { FromChild, RowOutcome, ToChild } from './judge-protocol';
import { snapshotResult } from './verdict-snapshot';

const file = process.argv[2];
// Taken before the judge loads: its code may replace process.send, not the engine's copy.
const send = process.send!.bind(process) as (message: FromChild) => boolean;
const prototypeKeys = Reflect.ownKeys(Object.prototype).length;
// The engine going away (or killing us) ends this process; so does a closed IPC channel.
process.on('disconnect', () => process.exit(0));

const NONE = Symbol('none');
let rejection: unknown = NONE;
// A promise the judge let fail unobserved is charged to the row being judged, not allowed to end the process.
process.on('unhandledRejection', (reason) => {
  rejection = reason;
});

type JudgeFn = (row: Record<string, unknown>) => unknown;
let judgeFn: JudgeFn | null = null;

const polluted = () => Reflect.ownKeys(Object.prototype).length !== prototypeKeys;
const pollutedKeys = () => Reflect.ownKeys(Object.prototype).slice(prototypeKeys).map(String);
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function whereInFile(error: unknown): string | null {
  try {
    const stack = error instanceof Error ? String(error.stack ?? '') : '';
    const url = pathToFileURL(file).href;
    const at = stack.indexOf(`${url}:`);
    if (at < 0) return null;
    const match = /^:(\d+):(\d+)/.exec(stack.slice(at + url.length));
    return match ? `${file}:${match[1]}:${match[2]}` : null;
  } catch {
    return null;
  }
}

async function load(): Promise<void> {
  let module: Record<string, unknown>;
  try {
    module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    await nextTurn();
  } catch (error) {
    send({ type: 'load_error', message: errorText(error), syntax: error instanceof SyntaxError, where: whereInFile(error) });
    return;
  }
  if (rejection !== NONE) return void send({ type: 'load_error', message: `an unhandled rejection while loading: ${errorText(rejection)}`, syntax: false, where: whereInFile(rejection) });
  if (polluted()) return void send({ type: 'load_error', message: `the module changes Object.prototype while loading (${pollutedKeys().join(', ')})`, syntax: false, where: null });
  const fn = typeof module.default === 'function' ? module.default : module.judge;
  if (typeof fn !== 'function') return void send({ type: 'load_error', message: 'must export a default function (row) => reward or {reward, markers}', syntax: false, where: null });
  judgeFn = fn as JudgeFn;
  let scale: unknown;
  try {
    scale = module.scale === undefined ? undefined : JSON.parse(JSON.stringify(module.scale));
  } catch {
    scale = 'unreadable';
  }
  send({ type: 'ready', declared_name: typeof module.name === 'string' ? module.name : null, fn_name: String(judgeFn.name ?? ''), scale });
}

async function judgeOne(row: Record<string, unknown>): Promise<RowOutcome> {
  rejection = NONE;
  let outcome: RowOutcome;
  try {
    let value = judgeFn!(row);
    if (value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function') value = await value;
    outcome = snapshotResult(value);
  } catch (error) {
    outcome = { status: 'error', meta: { error: errorText(error) } };
  }
  // One turn of the event loop, so a rejection this row left unobserved is reported before its verdict goes out.
  await nextTurn();
  if (rejection !== NONE) outcome = { status: 'error', meta: { error: `unhandled rejection: ${errorText(rejection)}` } };
  return outcome;
}

/**
 * A fast chunk answers once, at its end. Once a chunk has run FLUSH_MS, what is done goes out before each next
 * row starts: the engine then knows exactly which row is running when its deadline passes (see judge-pool.ts).
 */
const FLUSH_MS = 20;

/** Judges one chunk; false when this process is spoilt (the engine ends it, and no further chunk is begun). */
async function runChunk(message: ToChild): Promise<boolean> {
  const { id } = message;
  const startedAt = Date.now();
  const rows = message.rows.map((text) => JSON.parse(text) as Record<string, unknown>);
  let from = 0;
  let outcomes: RowOutcome[] = [];
  for (let i = 0; i < rows.length; i++) {
    if (outcomes.length > 0 && Date.now() - startedAt > FLUSH_MS) {
      send({ type: 'results', id, from, outcomes });
      from = i;
      outcomes = [];
    }
    outcomes.push(await judgeOne(rows[i]));
    if (polluted()) {
      // Own keys only are read, so no reward leaks; still, this realm is spoilt: the engine starts a fresh one.
      outcomes[outcomes.length - 1] = { status: 'invalid_result', meta: { prototype_polluted: pollutedKeys(), problem: 'the judge changed Object.prototype' } };
      send({ type: 'results', id, from, outcomes, retire: true });
      return false;
    }
  }
  // How long the chunk took, so the engine sizes the next ones to finish before FLUSH_MS (one message a chunk).
  send({ type: 'results', id, from, outcomes, ms: Date.now() - startedAt });
  return true;
}

// One chunk at a time, in the order they came: the engine sends the next before this one is done, so it waits here.
const waiting: ToChild[] = [];
let judging = false;
async function judgeWaiting(): Promise<void> {
  judging = true;
  while (waiting.length > 0) {
    if (!(await runChunk(waiting.shift()!))) waiting.length = 0;
  }
  judging = false;
}
process.on('message', (message: ToChild) => {
  if (message?.type !== 'chunk' || !Array.isArray(message.rows) || !message.rows.every((text) => typeof text === 'string') || !judgeFn) return;
  waiting.push(message);
  if (!judging) void judgeWaiting();
});
void load();
