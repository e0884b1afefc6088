// while-desk grade DATASET_ID --judge SPEC [--rubric FILE] [--likert] [--concurrency N] [--timeout S] [--name NAME] [--api-key-env NAME] [--db PATH] [--json]
import { type Command, UsageError, dbFlag, intFlag, jsonFlag, numberFlag, parseFlags } from '../command';
import { gradeDataset } from '../../judges/grade-dataset';
import { loadJudge } from '../../judges/load-judge';
import { withEngine } from '../open-engine';

export const gradeCommand: Command = {
  usage:
    'while-desk grade DATASET_ID --judge FILE.mjs|FILE.json|llm:<agent spec> [--rubric FILE] [--likert] [--concurrency N] [--timeout SECONDS] [--name NAME] [--api-key-env NAME] [--db PATH] [--json]',
  async run(args, io) {
    const { values, positionals } = parseFlags(args, {
      ...dbFlag,
      ...jsonFlag,
      judge: { type: 'string' },
      rubric: { type: 'string' },
      likert: { type: 'boolean', default: false },
      concurrency: { type: 'string' },
      timeout: { type: 'string' },
      name: { type: 'string' },
      'api-key-env': { type: 'string' },
    });
    if (positionals.length !== 1) throw new UsageError('give exactly one dataset or run id to grade');
    if (!values.judge) throw new UsageError('--judge is required: a JS module (FILE.mjs), a rules file (FILE.json) or llm:<agent spec>');
    const concurrency = intFlag(values.concurrency, 'concurrency', 8, 1);
    const timeoutS = numberFlag(values.timeout, 'timeout', 0);
    if (timeoutS < 0) throw new UsageError('--timeout must be a number of seconds above 0');
    const judge = await loadJudge(values.judge, {
      rubricFile: values.rubric,
      likert: values.likert || undefined,
      concurrency,
      apiKeyEnv: values['api-key-env'],
      timeoutMs: timeoutS > 0 ? timeoutS * 1000 : undefined,
    });
    const showProgress = io.isTty && !values.json;
    try {
      const result = await withEngine(values.db, (engine) =>
        gradeDataset(engine.ctx.db, positionals[0], {
          judge,
          judgeSpec: values.judge as string,
          name: values.name,
          concurrency,
          onProgress: showProgress ? (p) => io.err(`\r${p.done}/${p.total} rows graded`) : undefined,
        }),
      );
      if (showProgress) io.err('\n');
      if (values.json) {
        io.out(JSON.stringify(result) + '\n');
      } else {
        const unscored = result.rows - result.graded;
        io.out(`graded ${result.rows} rows of ${result.parent_id} into dataset ${result.dataset_id} (judge ${result.judge_name})\n`);
        io.out(`mean reward ${result.mean_reward ?? 'n/a'} over ${result.graded} scored rows` + (unscored ? `; ${unscored} left without a reward: ${Object.entries(result.statuses).filter(([status, n]) => status !== 'ok' && n > 0).map(([status, n]) => `${n} ${status}`).join(', ')}` : '') + '\n');
        if (result.first_problem) io.err(`first problem: ${result.first_problem}\n`);
      }
      return 0;
    } finally {
      await judge.close?.();
    }
  },
};
