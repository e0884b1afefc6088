// while-desk grade ID --judge SPEC: a client of grade.start / grade.progress / grade.wait, like the app's Grade panel.
import path from 'node:path';
import type { GradeSummary } from '../../../shared/api/grade';
import { JUDGE_SPEC_HELP, specNamesAgent } from '../../../shared/schema/agent-spec';
import { isModelJudge, RUN_DEFAULTS, RUN_SETTING_HELP, type JudgeSettings } from '../../../shared/schema/run-settings';
import { judgeFromFlags, withAbsoluteModelPath } from '../agent-spec';
import { type Command, dbFlag, intFlag, jsonFlag, parseFlags, UsageError } from '../command';
import { withEngine } from '../open-engine';

const usage =
  'while-desk grade DATASET_OR_RUN_ID --judge SPEC [--rubric FILE] [--likert] [--judge-agent SPEC] [--judge-timeout S] [--concurrency N] [--name NAME] [--api-key-env NAME] [--gpu G] [--threads N] [--db PATH] [--json]\n' +
  `  SPEC: ${JUDGE_SPEC_HELP} (llm: with --rubric FILE)\n` +
  '  rubric:FILE.json grades item by item (markers rubric:<slug>); likert:AGENT@1-5 rates 1..5, reward (r - 1) / 4\n' +
  '  --judge-agent: the model of a rubric: or likert: judge that names none (default seeded: an offline dry run)\n' +
  '  --gpu, --threads, --context-size: a llama judge agent\'s settings\n' +
  `  --judge-timeout: ${RUN_SETTING_HELP.judge_timeout_s}`;

/** Paths as this shell means them: the engine may run elsewhere (serve) or in another folder. */
function absolutePaths(judge: JudgeSettings): JudgeSettings {
  if (!isModelJudge(judge)) return { ...judge, path: path.resolve(judge.path) };
  return { ...judge, agent: withAbsoluteModelPath(judge.agent), rubric_path: judge.rubric_path === null ? null : path.resolve(judge.rubric_path) };
}

function countsText(counts: GradeSummary['judge_status_counts']): string {
  return Object.entries(counts)
    .filter(([status, n]) => status !== 'ok' && n > 0)
    .map(([status, n]) => `${n} ${status}`)
    .join(', ');
}

export const gradeCommand: Command = {
  usage,
  async run(args, io) {
    const { values, positionals } = parseFlags(args, {
      ...dbFlag,
      ...jsonFlag,
      judge: { type: 'string' },
      rubric: { type: 'string' },
      likert: { type: 'boolean' },
      'judge-agent': { type: 'string' },
      gpu: { type: 'string' },
      threads: { type: 'string' },
      'context-size': { type: 'string' },
      concurrency: { type: 'string' },
      'judge-timeout': { type: 'string' },
      timeout: { type: 'string' },
      name: { type: 'string' },
      'api-key-env': { type: 'string' },
    });
    if (positionals.length !== 1) throw new UsageError('give exactly one dataset or run id to grade');
    if (!values.judge) throw new UsageError('--judge is required: a JS module (FILE.mjs), a rules file (FILE.json) or llm:<agent spec>');
    const concurrency = values.concurrency === undefined ? undefined : intFlag(values.concurrency, 'concurrency', RUN_DEFAULTS.concurrency, 1);
    let judge: JudgeSettings | null;
    try {
      // --timeout is the older spelling of --judge-timeout
      judge = judgeFromFlags(
        {
          judge: values.judge,
          rubric: values.rubric,
          likert: values.likert,
          'judge-agent': values['judge-agent'],
          'judge-timeout': values['judge-timeout'] ?? values.timeout,
          'api-key-env': values['api-key-env'],
          gpu: values.gpu,
          threads: values.threads,
          'context-size': values['context-size'],
        },
        true,
      );
    } catch (error) {
      throw error instanceof UsageError ? error : new UsageError((error as Error).message);
    }
    if (!judge) throw new UsageError('--judge is required');
    if ((judge.kind === 'rubric' || judge.kind === 'likert') && judge.agent.kind === 'seeded' && !specNamesAgent(values.judge) && !values['judge-agent']) {
      io.err(`${judge.kind} judge: no model named (--judge-agent SPEC, or in the spec), so the seeded stand-in answers: a dry run whose verdicts measure nothing\n`);
    }
    judge = absolutePaths(judge);
    const showProgress = io.isTty && !values.json;
    const summary = await withEngine(values.db, async (engine) => {
      const started = await engine.call('grade.start', { dataset_id: positionals[0], judge: judge as JudgeSettings, name: values.name, concurrency });
      const off = showProgress
        ? engine.on('grade.progress', (p) => {
            if (p.grade_id === started.grade_id) io.err(`\r${p.done}/${p.total} rows graded`);
          })
        : () => undefined;
      const onSigint = () => void engine.call('grade.cancel', { grade_id: started.grade_id });
      process.once('SIGINT', onSigint);
      try {
        return await engine.call('grade.wait', { grade_id: started.grade_id });
      } finally {
        process.off('SIGINT', onSigint);
        off();
        if (showProgress) io.err('\n');
      }
    });
    if (values.json) {
      io.out(JSON.stringify(summary) + '\n');
    } else {
      const unscored = summary.rows - summary.graded;
      io.out(`graded ${summary.rows} rows of ${summary.parent_id} into dataset ${summary.dataset_id} (judge ${summary.judge_name})\n`);
      if (summary.all_failed) io.out(`the judge scored none of the ${summary.rows} rows: ${countsText(summary.judge_status_counts)}\n`);
      else io.out(`mean reward ${summary.mean_reward ?? 'n/a'} over ${summary.graded} scored rows` + (unscored ? `; ${unscored} left without a reward: ${countsText(summary.judge_status_counts)}` : '') + '\n');
      if (summary.trust) io.out(`judge trust (${summary.trust.n_labeled} rows with gold and a verdict): ${summary.trust.line}\n`);
      if (summary.first_problem) io.err(`first problem: ${summary.first_problem}\n`);
    }
    return 0;
  },
};
