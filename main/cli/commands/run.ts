// while-desk run --tasks FILE --agent SPEC --k N ...: a simulation into a new run, committed row by row.
import { type Command, dbFlag, intFlag, jsonFlag, numberFlag, parseFlags, UsageError } from '../command';
import { followRun } from '../follow-run';
import { withEngine } from '../open-engine';

const usage =
  'while-desk run --tasks FILE --agent SPEC [--k N] [--runs N] [--judge SPEC] [--rubric FILE] [--concurrency N] [--seed N] ' +
  '[--max-turns N] [--misbehave-rate X] [--api-key-env NAME] [--gpu auto|cpu|cuda|vulkan|metal] [--threads N] [--context-size N] ' +
  '[--name NAME] [--db PATH] [--json]\n' +
  '  SPEC: seeded | openai:MODEL@BASE_URL | llama:PATH.gguf';

const GPUS = ['auto', 'cpu', 'cuda', 'vulkan', 'metal'] as const;

function gpuFlag(value: string | undefined): (typeof GPUS)[number] {
  if (value === undefined) return 'auto';
  const found = GPUS.find((gpu) => gpu === value);
  if (!found) throw new UsageError(`--gpu must be one of ${GPUS.join(', ')} (got "${value}")`);
  return found;
}

export const runCommand: Command = {
  usage,
  async run(args, io) {
    const { values } = parseFlags(
      args,
      {
        ...dbFlag,
        ...jsonFlag,
        tasks: { type: 'string' },
        agent: { type: 'string' },
        k: { type: 'string' },
        runs: { type: 'string' },
        judge: { type: 'string' },
        rubric: { type: 'string' },
        concurrency: { type: 'string' },
        seed: { type: 'string' },
        'max-turns': { type: 'string' },
        'misbehave-rate': { type: 'string' },
        'api-key-env': { type: 'string' },
        gpu: { type: 'string' },
        threads: { type: 'string' },
        'context-size': { type: 'string' },
        name: { type: 'string' },
      },
      false,
    );
    if (!values.tasks) throw new UsageError('--tasks FILE is required (a task JSONL, or a rows file of an earlier run)');
    if (!values.agent) throw new UsageError('--agent SPEC is required: seeded, openai:MODEL@BASE_URL or llama:PATH.gguf');
    const misbehave = numberFlag(values['misbehave-rate'], 'misbehave-rate', 0.3);
    if (misbehave < 0 || misbehave > 1) throw new UsageError(`--misbehave-rate must lie in [0, 1] (got ${misbehave})`);
    const input = {
      tasks_path: values.tasks,
      agent: values.agent,
      k: values.k === undefined ? undefined : intFlag(values.k, 'k', 1, 1),
      runs: intFlag(values.runs, 'runs', 1, 1),
      judge: values.judge,
      rubric: values.rubric,
      concurrency: intFlag(values.concurrency, 'concurrency', 8, 1),
      seed: intFlag(values.seed, 'seed', 0),
      max_turns: intFlag(values['max-turns'], 'max-turns', 8, 1),
      misbehave_rate: misbehave,
      api_key_env: values['api-key-env'],
      gpu: gpuFlag(values.gpu),
      threads: values.threads === undefined ? undefined : intFlag(values.threads, 'threads', 1, 1),
      context_size: values['context-size'] === undefined ? undefined : intFlag(values['context-size'], 'context-size', 4096, 256),
      name: values.name,
    };
    // The task file is checked before the engine opens, so a refused file leaves no new database behind.
    const { readTaskFile } = await import('../../sim/task-file');
    readTaskFile(values.tasks);
    return withEngine(values.db, async (engine) => {
      const started = await engine.call('runs.start', input);
      io.out(`run ${started.run_id}\n`);
      if (!values.json) io.out(`${started.tasks} tasks x k=${input.k ?? started.expected_rows / started.tasks / input.runs} x ${input.runs} run(s) = ${started.expected_rows} rollouts\n`);
      return followRun(engine, started.run_id, io, Boolean(values.json));
    });
  },
};
