// The model process: loads a GGUF with node-llama-cpp and answers turn requests over IPC, one at a time, with
// grammar-constrained JSON. Runs apart from the engine because llama.cpp can abort the process that loads a bad file.
import { getLlama, LlamaChat, LlamaLogLevel, type Llama, type LlamaGrammar, type LlamaModel } from 'node-llama-cpp';
import type { ChildReply, ChildRequest } from './llama-protocol';
import { toChatHistory } from './chat-history';
import { responseSchema } from './turn-format';

type TurnRequest = Extract<ChildRequest, { type: 'turn' }>;

let llama: Llama | undefined;
let model: LlamaModel | undefined;
let chat: LlamaChat | undefined;
const queue: TurnRequest[] = [];
const controllers = new Map<number, AbortController>();
let busy = false;
const grammars = new Map<string, Promise<LlamaGrammar>>();

/** Grammars are compiled once per tool set (a run sends the same tools every turn). */
function grammarFor(request: TurnRequest): Promise<LlamaGrammar> {
  const schema = responseSchema(request.tools, request.maxTextChars);
  const key = JSON.stringify(schema);
  let grammar = grammars.get(key);
  if (!grammar) {
    if (grammars.size >= 32) grammars.clear();
    grammar = llama!.createGrammarForJsonSchema(schema as never);
    grammar.catch(() => grammars.delete(key));
    grammars.set(key, grammar);
  }
  return grammar;
}

function send(reply: ChildReply): void {
  process.send?.(reply);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

async function load(request: Extract<ChildRequest, { type: 'load' }>): Promise<void> {
  const started = performance.now();
  try {
    llama = await getLlama({
      gpu: request.gpu === 'cpu' ? false : request.gpu,
      build: 'never',
      maxThreads: request.threads,
      logLevel: LlamaLogLevel.error,
    }).catch((error: unknown) => {
      throw new Error(
        `no llama.cpp build for gpu "${request.gpu}" works on this machine (${describe(error)}); ` +
          `use gpu "auto" (falls back to the CPU) or "cpu", or install the drivers for ${request.gpu}`,
      );
    });
    model = await llama.loadModel({ modelPath: request.modelPath, gpuLayers: request.gpu === 'cpu' ? 0 : 'auto' });
    const context = await model.createContext({
      contextSize: Math.min(request.contextSize, model.trainContextSize),
      threads: { ideal: request.threads, min: request.threads },
    });
    chat = new LlamaChat({ contextSequence: context.getSequence() });
    send({
      type: 'ready',
      gpu: llama.gpu,
      gpuLayers: model.gpuLayers,
      contextSize: context.contextSize,
      threads: request.threads,
      loadMs: performance.now() - started,
      modelName: typeof model.fileInfo.metadata?.general?.name === 'string' ? model.fileInfo.metadata.general.name : null,
    });
  } catch (error) {
    send({ type: 'load_error', message: describe(error) });
    setTimeout(() => process.exit(1), 50);
  }
}

async function runTurn(request: TurnRequest): Promise<void> {
  const controller = new AbortController();
  controllers.set(request.id, controller);
  const started = performance.now();
  try {
    if (!llama || !chat) throw new Error('the model is not loaded');
    const grammar = await grammarFor(request);
    let outputTokens = 0;
    const response = await chat.generateResponse(toChatHistory(request.messages, request.tools), {
      grammar,
      maxTokens: request.maxTokens,
      temperature: request.temperature,
      seed: request.seed,
      signal: controller.signal,
      onToken: (tokens) => {
        outputTokens += tokens.length;
      },
    });
    const inContext = chat.sequence.contextTokens.length;
    send({
      type: 'result',
      id: request.id,
      raw: response.response,
      stopReason: response.metadata.stopReason,
      inputTokens: Math.max(0, inContext - outputTokens),
      outputTokens,
      ms: performance.now() - started,
    });
  } catch (error) {
    send({ type: 'turn_error', id: request.id, message: describe(error), aborted: controller.signal.aborted });
  } finally {
    controllers.delete(request.id);
  }
}

async function drain(): Promise<void> {
  if (busy) return;
  busy = true;
  try {
    for (let next = queue.shift(); next; next = queue.shift()) await runTurn(next);
  } finally {
    busy = false;
  }
}

process.on('message', (message: ChildRequest) => {
  if (message.type === 'load') void load(message);
  else if (message.type === 'turn') {
    queue.push(message);
    void drain();
  } else if (message.type === 'cancel') {
    const index = queue.findIndex((item) => item.id === message.id);
    if (index >= 0) {
      queue.splice(index, 1);
      send({ type: 'turn_error', id: message.id, message: 'cancelled before it started', aborted: true });
    }
    controllers.get(message.id)?.abort(new Error('cancelled'));
  }
});

// The parent going away (crash, kill -9) must not leave a model process behind.
process.on('disconnect', () => process.exit(0));
