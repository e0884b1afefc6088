// while-desk sweep --tasks FILE --variants FILE.json --k N --judge SPEC: every variant on one frozen task set,
// ranked by the platform's HarnessSweep rules; `--resume ID` finishes an interrupted one, `--list` shows them all.
import fs from 'node:fs';
import { SWEEP_DEFAULTS, type SweepProgress } from '../../../shared/api/sweeps';
import { parseVariantsJson } from '../../../shared/api/sweep-variants';
import { JUDGE_SPEC_HELP } from '../../../shared/schema/agent-spec';
import { type CliIo, type Command, dbFlag, jsonFlag, parseFlags, UsageError } from '../command';
import { judgeFromFlags, optionalNumber } from '../agent-spec';
import { withEngine } from '../open-engine';
import { formatTable } from '../table';
import type { Engine } from '../../engine/index';

const usage = [
  'while-desk sweep --tasks FILE --variants FILE.json --judge SPEC [--k N] [--noise-runs N] [--concurrency N] [--max-turns N]',
  '    [--judge-timeout SECONDS] [--name NAME] [--db PATH] [--json]',
  'while-desk sweep --resume SWEEP_ID [--db PATH] [--json]',
  'while-desk sweep --list [--db PATH] [--json]',
  '  --variants FILE    JSON [{"label": "prompt@model", "system_prompt": "...", "agent": {...} or "seeded"}] (docs/sweeps.md)',
  `  --judge SPEC       ${JUDGE_SPEC_HELP}: one judge for every arm`,
  `  --k N              rollouts per task in every arm (default ${SWEEP_DEFAULTS.k})`,
  `  --noise-runs N     scorings of the first variant for the noise floor (default ${SWEEP_DEFAULTS.noise_runs}; 3 or more read better)`,
  '  --json             print the report as SweepReport.to_dict() (plus its text); the sweep id goes to stderr',
].join('\n');

const whole = (min: number) => (n: number) => Number.isInteger(n) && n >= min;

/** The variants file, checked here (shared/api/sweep-variants.ts, as the app checks one) so a mistake names the file and the variant. */
function readVariants(file: string): unknown[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--variants ${file}: ${(error as Error).message}`);
  }
  const checked = parseVariantsJson(text, `--variants ${file}`);
  if ('problem' in checked) throw new UsageError(checked.problem);
  return JSON.parse(text) as unknown[];
}

function bar(p: SweepProgress): string {
  const width = 28;
  const filled = Math.round((p.total > 0 ? p.done / p.total : 1) * width);
  const now = p.label ? `  ${p.label}${p.rerun ? ` (noise re-run ${p.rerun})` : ''}` : '';
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${p.done}/${p.total}${now}`;
}

async function followSweep(engine: Engine, sweepId: string, io: CliIo, json: boolean): Promise<number> {
  const showBar = io.isTty && Boolean(process.stderr.isTTY);
  const off = showBar ? engine.on('sweep.progress', (p) => p.sweep_id === sweepId && io.err(`\r${bar(p)}\x1b[K`)) : () => undefined;
  try {
    await engine.call('sweeps.wait', { id: sweepId });
  } finally {
    off();
    if (showBar) io.err('\n');
  }
  const sweep = await engine.call('sweeps.get', { id: sweepId });
  if (sweep.status === 'failed') {
    io.err(`sweep ${sweepId} failed: ${sweep.error ?? 'unknown error'}\n`);
    return 1;
  }
  if (!sweep.report) {
    io.err(`sweep ${sweepId} stopped (${sweep.status}) with ${sweep.rows} of ${sweep.expected_rows} rows; \`while-desk sweep --resume ${sweepId}\` finishes it\n`);
    return 130;
  }
  io.out(json ? JSON.stringify(sweep.report) + '\n' : sweep.report.text + '\n');
  return 0;
}

export const sweepCommand: Command = {
  usage,
  async run(args, io) {
    const { values } = parseFlags(
      args,
      {
        ...dbFlag,
        ...jsonFlag,
        tasks: { type: 'string' },
        variants: { type: 'string' },
        judge: { type: 'string' },
        'judge-timeout': { type: 'string' },
        k: { type: 'string' },
        'noise-runs': { type: 'string' },
        concurrency: { type: 'string' },
        'max-turns': { type: 'string' },
        name: { type: 'string' },
        resume: { type: 'string' },
        list: { type: 'boolean', default: false },
      },
      false,
    );
    const json = Boolean(values.json);
    const say = (text: string) => (json ? io.err(text) : io.out(text));
    if (values.list) {
      const sweeps = await withEngine(values.db, (engine) => engine.call('sweeps.list', {}));
      if (json) io.out(JSON.stringify(sweeps) + '\n');
      else if (!sweeps.length) io.out('no sweeps yet: `while-desk sweep --tasks FILE --variants FILE.json --judge SPEC` starts one\n');
      else io.out(formatTable(['ID', 'STATUS', 'ROWS', 'VARIANTS', 'BEST', 'NAME'], sweeps.map((s) => [s.id, s.status, `${s.rows}/${s.expected_rows}`, String(s.variants), s.best ?? '-', s.name])));
      return 0;
    }
    if (values.resume) {
      return withEngine(values.db, async (engine) => {
        const resumed = await engine.call('sweeps.resume', { id: values.resume as string });
        say(`sweep ${resumed.sweep_id}\n${resumed.message}\n`);
        return followSweep(engine, resumed.sweep_id, io, json);
      });
    }
    if (!values.tasks) throw new UsageError('--tasks FILE is required (the frozen task set every variant answers)');
    if (!values.variants) throw new UsageError('--variants FILE.json is required (see docs/sweeps.md)');
    if (!values.judge) throw new UsageError(`--judge SPEC is required (${JUDGE_SPEC_HELP}): every arm is graded by it`);
    const input = {
      tasks_path: values.tasks,
      variants: readVariants(values.variants),
      judge: judgeFromFlags({ judge: values.judge, 'judge-timeout': values['judge-timeout'] }) as NonNullable<ReturnType<typeof judgeFromFlags>>,
      k: optionalNumber(values.k, 'k', whole(1), 'a whole number of at least 1'),
      noise_runs: optionalNumber(values['noise-runs'], 'noise-runs', whole(1), 'a whole number of at least 1'),
      concurrency: optionalNumber(values.concurrency, 'concurrency', whole(1), 'a whole number of at least 1'),
      max_turns: optionalNumber(values['max-turns'], 'max-turns', whole(1), 'a whole number of at least 1'),
      name: values.name,
    };
    return withEngine(
      values.db,
      async (engine) => {
        const started = await engine.call('sweeps.start', input as never);
        say(`sweep ${started.sweep_id}\n`);
        if (!json) io.out(`${started.labels.length} variants x ${started.tasks} tasks x k=${input.k ?? SWEEP_DEFAULTS.k}, noise runs ${input.noise_runs ?? SWEEP_DEFAULTS.noise_runs}: ${started.expected_rows} rollouts\n`);
        return followSweep(engine, started.sweep_id, io, json);
      },
      { discardIfRefused: true },
    );
  },
};
