// One module judge's process, seen from the engine: forked with its own V8 heap limit, loaded under a deadline,
// its console output sent to stderr (never into a command's --json stdout), killed when it overruns or at close.
// Its pipes and IPC channel are unref'd: a judge left running never keeps a command from exiting.
import { fork, type ChildProcess } from 'node:child_process';
import { builtScript } from '../engine/package-root';
import type { FromChild } from './judge-protocol';

export interface IsolateOptions {
  file: string;
  /** V8 old-generation limit of the process: a memory bomb ends the judge's process, not the engine. */
  heapMb: number;
  loadTimeoutMs: number;
}

export interface JudgeInfo {
  declaredName: string | null;
  fnName: string;
  scale: unknown;
}

/** A load that failed: the message names the file; `syntax` asks the caller to look up line:column. */
export class JudgeLoadError extends Error {
  constructor(
    message: string,
    readonly syntax = false,
  ) {
    super(message);
  }
}

export interface Isolate {
  child: ChildProcess;
  info: JudgeInfo;
  /** Calls back once when the process has ended (after its last output, so the reason can read it). */
  onDeath(callback: (reason: string) => void): void;
  /** Why the process ended, as best known (its exit code or signal, a V8 out-of-memory note). */
  deathReason(code: number | null, signal: NodeJS.Signals | null): string;
  kill(): void;
}

/** Judge output echoed to stderr, up to this much per process (a judge that logs every row cannot flood it). */
const ECHO_LIMIT = 64 * 1024;

function unref(child: ChildProcess): void {
  child.unref();
  (child.channel as { unref?: () => void } | undefined)?.unref?.();
  for (const pipe of [child.stdout, child.stderr]) (pipe as unknown as { unref?: () => void } | null)?.unref?.();
}

export function startIsolate(options: IsolateOptions): Promise<Isolate> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  // Inside the app, process.execPath is Electron; the judge must run as plain Node.
  if (process.versions.electron) env.ELECTRON_RUN_AS_NODE = '1';
  const child = fork(builtScript('judge-child.mjs'), [options.file], {
    execArgv: [`--max-old-space-size=${options.heapMb}`],
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    serialization: 'advanced',
    env,
  });
  unref(child);
  let echoLeft = ECHO_LIMIT;
  let tail = '';
  const forward = (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    tail = (tail + text).slice(-2000);
    if (echoLeft <= 0) return;
    process.stderr.write(text.length > echoLeft ? `${text.slice(0, echoLeft)}\n[judge output cut off]\n` : text);
    echoLeft -= text.length;
  };
  child.stdout?.on('data', forward);
  child.stderr?.on('data', forward);
  // Never an unhandled 'error' event in the engine, whatever the judge does.
  child.on('error', () => undefined);
  const deathReason = (code: number | null, signal: NodeJS.Signals | null) => {
    if (/heap out of memory|Reached heap limit|Allocation failed/i.test(tail)) return `the judge ran out of memory (heap limit ${options.heapMb} MiB)`;
    if (signal) return `the judge's process was ended by ${signal}`;
    return `the judge ended its process (process.exit(${code}))`;
  };
  const onDeath = (callback: (reason: string) => void) => {
    let called = false;
    const once = (reason: string) => {
      if (!called) (called = true), callback(reason);
    };
    child.once('exit', (code, signal) => {
      // 'close' comes after the last output; a grandchild holding the pipes must not delay it for long.
      const timer = setTimeout(() => once(deathReason(code, signal)), 200);
      child.once('close', () => (clearTimeout(timer), once(deathReason(code, signal))));
    });
  };
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  return new Promise<Isolate>((resolve, reject) => {
    const fail = (message: string, syntax = false) => {
      cleanup();
      kill();
      reject(new JudgeLoadError(message, syntax));
    };
    const timer = setTimeout(() => fail(`did not finish loading within ${options.loadTimeoutMs / 1000} s (an endless loop at the top of the module?)`), options.loadTimeoutMs);
    const onMessage = (message: FromChild) => {
      if (message?.type === 'ready') {
        cleanup();
        resolve({ child, info: { declaredName: typeof message.declared_name === 'string' ? message.declared_name : null, fnName: String(message.fn_name ?? ''), scale: message.scale }, deathReason, onDeath, kill });
      } else if (message?.type === 'load_error') {
        fail(message.where ? `${String(message.message)} (at ${String(message.where)})` : String(message.message), message.syntax === true);
      }
    };
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => fail(`${deathReason(code, signal)} while loading`);
    const onError = (error: Error) => fail(`could not start the judge's process: ${error.message}`);
    const cleanup = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
      child.off('error', onError);
    };
    child.on('message', onMessage);
    child.on('exit', onExit);
    child.on('error', onError);
  });
}
