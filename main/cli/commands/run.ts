// while-desk run --tasks FILE --agent SPEC --k N ...: a simulation into a new run, committed row by row.
import { RUN_SETTING_HELP } from '../../../shared/schema/run-settings';
import { type Command, dbFlag, jsonFlag, parseFlags, UsageError } from '../command';
import { agentFromFlags, judgeFromFlags, optionalNumber, runSettingFlags, runSettingsHelp } from '../agent-spec';
import { followRun } from '../follow-run';
import { withEngine } from '../open-engine';

const usage = [
  'while-desk run --tasks FILE --agent SPEC [--k N] [--runs N] [--judge SPEC] [--rubric FILE] [--likert] [--judge-timeout SECONDS]',
  '    [--concurrency N] [--seed N] [--max-turns N] [--misbehave-rate X] [--api-key-env NAME] [--gpu auto|cpu|cuda|vulkan|metal]',
  '    [--threads N] [--context-size N] [--name NAME] [--db PATH] [--json]',
  '  --tasks FILE       a task JSONL, or a rows file of an earlier run (its tasks pinned)',
  `  --k N              ${RUN_SETTING_HELP.k}`,
  `  --runs N           ${RUN_SETTING_HELP.runs}`,
  `  --concurrency N    ${RUN_SETTING_HELP.concurrency}`,
  `  --seed N           ${RUN_SETTING_HELP.seed}`,
  `  --max-turns N      ${RUN_SETTING_HELP.max_turns}`,
  runSettingsHelp(),
  '  --json             print one JSON summary on stdout (the `run ID` line goes to stderr)',
].join('\n');

const whole = (min: number) => (n: number) => Number.isInteger(n) && n >= min;

export const runCommand: Command = {
  usage,
  async run(args, io) {
    const { values } = parseFlags(
      args,
      {
        ...dbFlag,
        ...jsonFlag,
        ...runSettingFlags,
        tasks: { type: 'string' },
        k: { type: 'string' },
        runs: { type: 'string' },
        concurrency: { type: 'string' },
        seed: { type: 'string' },
        'max-turns': { type: 'string' },
        name: { type: 'string' },
      },
      false,
    );
    if (!values.tasks) throw new UsageError('--tasks FILE is required (a task JSONL, or a rows file of an earlier run)');
    const input = {
      tasks_path: values.tasks,
      agent: agentFromFlags(values),
      judge: judgeFromFlags(values),
      k: optionalNumber(values.k, 'k', whole(1), 'a whole number of at least 1'),
      runs: optionalNumber(values.runs, 'runs', whole(1), 'a whole number of at least 1'),
      concurrency: optionalNumber(values.concurrency, 'concurrency', whole(1), 'a whole number of at least 1'),
      seed: optionalNumber(values.seed, 'seed', Number.isInteger, 'a whole number'),
      max_turns: optionalNumber(values['max-turns'], 'max-turns', whole(1), 'a whole number of at least 1'),
      name: values.name,
    };
    const json = Boolean(values.json);
    return withEngine(
      values.db,
      async (engine) => {
        const started = await engine.call('runs.start', input);
        // With --json stdout carries one JSON document only; the id line goes to stderr.
        if (json) io.err(`run ${started.run_id}\n`);
        else io.out(`run ${started.run_id}\n`);
        if (!json) {
          const k = started.tasks > 0 ? started.expected_rows / started.tasks / (input.runs ?? 1) : 0;
          io.out(`${started.tasks} tasks x k=${k} x ${input.runs ?? 1} run(s) = ${started.expected_rows} rollouts\n`);
        }
        return followRun(engine, started.run_id, io, json);
      },
      { discardIfRefused: true },
    );
  },
};
