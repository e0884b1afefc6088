// while-desk compare A B [every option of `stats delta`] [--json]: did the candidate B move the target against the
// baseline A, paired over tasks, with the noise floor, the guards and what the eval can detect; plus the per-task table.
import { fromTaskColumns, type PairedTaskTable } from '../../../shared/stats/paired-tasks';
import { type Command, UsageError, dbFlag, jsonFlag, parseFlags } from '../command';
import { withEngine } from '../open-engine';
import { flagsToParams, parseArgsOptions, statsSubcommand } from '../stats-flags';
import { deltaLines } from '../stats-print-delta';
import { formatTable } from '../table';

/** `stats delta`'s flags, which compare takes too. */
const delta = () => statsSubcommand('delta')!;
const SHOWN_TASKS = 15;

const pct = (value: number | null) => (value === null ? '-' : value.toFixed(3));
const signed = (value: number | null) => (value === null ? '-' : `${value >= 0 ? '+' : ''}${value.toFixed(3)}`);

function taskLines(table: PairedTaskTable): string[] {
  const lines = [
    '',
    `Per task: ${table.n_paired} paired (${table.n_regressed} regressed, ${table.n_improved} improved, ${table.n_same} unchanged), ` +
      `${table.n_only_baseline} only in the baseline, ${table.n_only_candidate} only in the candidate`,
  ];
  const moved = table.tasks.filter((t) => t.status === 'regressed' || t.status === 'improved');
  if (moved.length === 0) return lines;
  const shown = [...moved.filter((t) => t.status === 'regressed').slice(0, SHOWN_TASKS), ...moved.filter((t) => t.status === 'improved').slice(-SHOWN_TASKS).reverse()];
  lines.push(formatTable(['TASK', 'BASELINE', 'CANDIDATE', 'DELTA', ''], shown.map((t) => [t.task, pct(t.baseline), pct(t.candidate), signed(t.delta), t.status])).trimEnd());
  if (moved.length > shown.length) lines.push(`... ${moved.length - shown.length} more moved tasks (--json lists every task)`);
  return lines;
}

export const compareCommand: Command = {
  get usage() {
    return `while-desk compare BASELINE CANDIDATE [--json] [--db PATH] ${delta().usage.replace(/^delta BEFORE AFTER ?/, '')}`;
  },
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { ...dbFlag, ...jsonFlag, ...parseArgsOptions(delta()) } as never);
    if (positionals.length !== 2) throw new UsageError('give two dataset or run ids: the baseline, then the candidate');
    const [baseline, candidate] = positionals;
    const flags = values as Record<string, unknown>;
    const params = flagsToParams(delta(), flags);
    // A comparison asks whether pass@1 moved unless told otherwise (`--target none` reads every metric alike).
    if (params.target === undefined) params.target = 'pass_at_1';
    else if (params.target === 'none') params.target = null;
    return withEngine(flags.db as string | undefined, async (engine) => {
      // One job (compare_report): the delta report and the per-task table on rows the worker reads once.
      const out = await engine.call('stats.compareReport', { ...params, before: baseline, after: candidate });
      const report = { report: out.report };
      const table: PairedTaskTable = fromTaskColumns(out.task_table);
      if (flags.json) {
        const { tasks, ...counts } = table;
        io.out(JSON.stringify({ ...report.report, per_task: tasks, per_task_summary: counts }) + '\n');
      } else {
        io.out([`Baseline ${baseline}, candidate ${candidate}`, ...deltaLines(report.report), ...taskLines(table)].join('\n') + '\n');
      }
      return 0;
    });
  },
};
