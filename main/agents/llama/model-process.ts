// One llama-child process seen from the engine: starts it, loads the model, sends turns, validates every reply,
// and turns a crash (llama.cpp abort, bad file, kill) into a clear error instead of taking the engine down.
import { fork, type ChildProcess } from 'node:child_process';
import { builtScript } from '../../engine/package-root';
import { childReply, type ChildRequest, type LlamaGpu, type ReadyReply, type ResultReply } from './llama-protocol';

export class LlamaModelError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LlamaModelError';
  }
}

export interface LoadSettings {
  modelPath: string;
  gpu: LlamaGpu;
  threads: number;
  contextSize: number;
  loadTimeoutMs: number;
}

export type TurnSettings = Omit<Extract<ChildRequest, { type: 'turn' }>, 'type' | 'id'>;

interface Pending {
  resolve: (reply: ResultReply) => void;
  reject: (error: Error) => void;
}

export class ModelProcess {
  private child: ChildProcess | undefined;
  private stderrTail = '';
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private failure: LlamaModelError | undefined;
  ready: ReadyReply | undefined;

  constructor(private readonly settings: LoadSettings) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get dead(): boolean {
    return this.failure !== undefined;
  }

  /** Starts the process and resolves once the model is loaded; rejects with the reason it could not be. */
  start(): Promise<ReadyReply> {
    // GGML_NO_BACKTRACE: on an abort, llama.cpp would otherwise attach a debugger to print a stack (seconds, noisy).
    // ELECTRON_RUN_AS_NODE: inside the app, process.execPath is Electron; the child must run as plain Node.
    const env: NodeJS.ProcessEnv = { ...process.env, GGML_NO_BACKTRACE: '1' };
    if (process.versions.electron) env.ELECTRON_RUN_AS_NODE = '1';
    const child = fork(builtScript('llama-child.mjs'), [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'json', env });
    this.child = child;
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-4000);
    });
    return new Promise<ReadyReply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(`did not finish loading within ${Math.round(this.settings.loadTimeoutMs / 1000)} s`);
        reject(this.failure);
      }, this.settings.loadTimeoutMs);
      child.on('message', (message: unknown) => {
        const parsed = childReply.safeParse(message);
        if (!parsed.success) {
          this.fail(`sent a reply that is not valid (${parsed.error.issues[0]?.message}); the process was stopped`);
          return;
        }
        const reply = parsed.data;
        if (reply.type === 'ready') {
          clearTimeout(timer);
          this.ready = reply;
          resolve(reply);
        } else if (reply.type === 'load_error') {
          clearTimeout(timer);
          this.fail(`could not be loaded: ${reply.message}`);
          reject(this.failure);
        } else {
          const waiting = this.pending.get(reply.id);
          if (!waiting) return;
          this.pending.delete(reply.id);
          if (reply.type === 'result') waiting.resolve(reply);
          else waiting.reject(new LlamaModelError(reply.aborted ? `turn cancelled: ${reply.message}` : `turn failed in the model process: ${reply.message}`));
        }
      });
      child.on('error', (error) => {
        clearTimeout(timer);
        this.fail(`could not start its model process: ${error.message}`);
        reject(this.failure);
      });
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        const phase = this.ready ? 'while running' : 'while loading';
        this.fail(`crashed: its model process ${how} ${phase}${this.stderrSummary()}`);
        reject(this.failure);
      });
      this.send({ type: 'load', ...this.settings });
    });
  }

  turn(settings: TurnSettings, signal: AbortSignal): Promise<ResultReply> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<ResultReply>((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(id);
        this.send({ type: 'cancel', id });
        reject(new LlamaModelError('turn cancelled'));
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      const done = () => signal.removeEventListener('abort', onAbort);
      this.pending.set(id, {
        resolve: (reply) => (done(), resolve(reply)),
        reject: (error) => (done(), reject(error)),
      });
      this.send({ type: 'turn', id, ...settings });
    });
  }

  /** Stops the process and waits until it is gone. */
  async close(): Promise<void> {
    const child = this.child;
    const alive = child !== undefined && child.exitCode === null && child.signalCode === null;
    const exited = alive ? new Promise<void>((resolve) => child.once('exit', () => resolve())) : undefined;
    this.fail('was closed');
    await exited;
  }

  private send(request: ChildRequest): void {
    if (this.child?.connected) this.child.send(request);
  }

  private stderrSummary(): string {
    const lines = this.stderrTail.trim().split('\n').filter(Boolean).slice(-3);
    return lines.length ? ` (llama.cpp said: ${lines.join(' | ').slice(0, 600)})` : '';
  }

  private fail(reason: string): void {
    if (this.failure) return;
    this.failure = new LlamaModelError(`model ${this.settings.modelPath} ${reason}`);
    for (const waiting of this.pending.values()) waiting.reject(this.failure);
    this.pending.clear();
    const child = this.child;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}
