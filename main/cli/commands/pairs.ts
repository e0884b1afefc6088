// while-desk pairs A B --judge SPEC: a client of pairs.judge. A and B are dataset ids or JSONL files, paired by task;
// each pair is asked both ways round and the counts, the flip rate and judge_pairs's report come back.
import type { AgentSettings } from '../../../shared/schema/run-settings';
import { agentFromSpec, AGENT_SPEC_HELP } from '../../../shared/schema/agent-spec';
import { judgeTimeoutFlag, optionalNumber, withAbsoluteModelPath } from '../agent-spec';
import { type Command, dbFlag, jsonFlag, parseFlags, UsageError } from '../command';
import { withEngine } from '../open-engine';
import { apiSource } from '../stats-run';

const usage =
  'while-desk pairs A B --judge SPEC [--no-swap] [--judge-timeout S] [--concurrency N] [--api-key-env NAME] [--db PATH] [--json]\n' +
  '  A, B: dataset ids or JSONL files; rows pair by task (the k-th row of a task in A with the k-th in B)\n' +
  `  SPEC: the judge's model, ${AGENT_SPEC_HELP} (seeded: an offline dry run that measures nothing)`;

export const pairsCommand: Command = {
  usage,
  async run(args, io) {
    const { values, positionals } = parseFlags(args, {
      ...dbFlag,
      ...jsonFlag,
      judge: { type: 'string' },
      'no-swap': { type: 'boolean', default: false },
      'judge-timeout': { type: 'string' },
      concurrency: { type: 'string' },
      'api-key-env': { type: 'string' },
    });
    if (positionals.length !== 2) throw new UsageError('give two datasets (ids or JSONL files): while-desk pairs A B --judge SPEC');
    if (!values.judge) throw new UsageError(`--judge SPEC is required: ${AGENT_SPEC_HELP}`);
    let judge: AgentSettings;
    try {
      judge = agentFromSpec(values.judge, { api_key_env: values['api-key-env'] }, process.env);
    } catch (error) {
      throw new UsageError(`--judge: ${(error as Error).message}`);
    }
    judge = withAbsoluteModelPath(judge);
    if (judge.kind === 'seeded') io.err('pairs: the seeded stand-in answers: a dry run whose verdicts measure nothing\n');
    const timeout = judgeTimeoutFlag(values['judge-timeout']);
    const concurrency = optionalNumber(values.concurrency, 'concurrency', (n) => Number.isInteger(n) && n >= 1 && n <= 64, 'a whole number from 1 to 64');
    const [a, b] = positionals.map(apiSource);
    const out = await withEngine(values.db, (engine) => engine.call('pairs.judge', { a, b, judge, swap: !values['no-swap'], timeout_s: timeout, concurrency }));
    const { report, counts } = out;
    if (values.json) {
      io.out(JSON.stringify({ ...report, counts, asked: out.asked, tasks_a: out.tasks_a, tasks_b: out.tasks_b, pairs: out.pairs }) + '\n');
      return 0;
    }
    io.out(`${report.n} pairs (${out.tasks_a} tasks in A, ${out.tasks_b} in B), judge ${report.judge}, ${out.asked} questions asked\n`);
    io.out(`A wins ${counts.A}, B wins ${counts.B}, tie ${counts.tie}` + (counts.failed ? `, judge failed on ${counts.failed}` : '') + '\n');
    io.out(`position_flip_rate ${report.position_flip_rate ?? 'n/a'} (pairs whose answer changed when A and B swapped count as ties)\n`);
    if (typeof a === 'string' && typeof b === 'string') io.out(`label these pairs by hand (a, b, =): #/label/pairs/${encodeURIComponent(a)}/${encodeURIComponent(b)} in while-desk serve or the app\n`);
    for (const warning of report.warnings) io.err(`warning: ${warning}\n`);
    return 0;
  },
};
