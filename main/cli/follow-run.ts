// Follows a run until it stops, through the typed API only: a progress bar on a terminal, then the summary.
import type { RunDetail, RunProgress } from '../../shared/api/runs';
import type { Engine } from '../engine/index';
import type { CliIo } from './command';

function bar(progress: RunProgress): string {
  const width = 28;
  const share = progress.total > 0 ? progress.done / progress.total : 1;
  const filled = Math.round(share * width);
  const eta = progress.eta_s === null ? '--' : progress.eta_s >= 60 ? `${Math.floor(progress.eta_s / 60)}m${String(progress.eta_s % 60).padStart(2, '0')}s` : `${progress.eta_s}s`;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${progress.done}/${progress.total}  ${progress.rollouts_per_s.toFixed(1)} rollouts/s  ETA ${eta}${progress.lost ? `  lost ${progress.lost}` : ''}`;
}

function statusList(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort(([, a], [, b]) => b - a)
    .map(([status, n]) => `${n} ${status}`)
    .join(', ');
}

/** A judge ran but no row got a reward: the summary says so, with the rows by judge_status. */
export function gradingFailed(run: RunDetail): boolean {
  return run.judge !== null && run.rows > 0 && run.graded_rows === 0 && Object.keys(run.judge_status_counts).length > 0;
}

export function summaryJson(run: RunDetail): Record<string, unknown> {
  const lost = run.rollouts_lost;
  return {
    run_id: run.id,
    status: run.status,
    rows: run.rows,
    expected_rows: run.expected_rows,
    rollouts_lost: lost.lost,
    rollouts_lost_by: lost.lost_by,
    rerolled: lost.rerolled,
    pass_at_1: run.pass_at_1,
    graded_rows: run.graded_rows,
    judge_status_counts: run.judge_status_counts,
    ...(gradingFailed(run) ? { grading_failed: true } : {}),
  };
}

/** Waits for the run; Ctrl-C cancels it (finished rows stay, `resume` continues). Returns the exit code. */
export async function followRun(engine: Engine, runId: string, io: CliIo, json: boolean): Promise<number> {
  const showBar = io.isTty && Boolean(process.stderr.isTTY);
  const off = showBar
    ? engine.on('run.progress', (progress) => {
        if (progress.run_id === runId) io.err(`\r${bar(progress)}\x1b[K`);
      })
    : () => undefined;
  const onSigint = () => void engine.call('runs.cancel', { id: runId });
  process.once('SIGINT', onSigint);
  try {
    await engine.call('runs.wait', { id: runId });
  } finally {
    process.off('SIGINT', onSigint);
    off();
    if (showBar) io.err('\n');
  }
  const run = await engine.call('runs.get', { id: runId });
  const lost = run.rollouts_lost;
  if (json) {
    io.out(JSON.stringify(summaryJson(run)) + '\n');
  } else {
    const pass = run.pass_at_1 === null ? (run.judge ? 'no pass@1' : 'ungraded') : `pass@1 ${run.pass_at_1.toFixed(3)} over ${run.graded_rows} graded rows`;
    io.out(`${run.status}: ${run.rows}/${run.expected_rows} rows, ${lost.lost} rollouts lost, ${lost.rerolled} re-rolled, ${pass}\n`);
  }
  if (gradingFailed(run)) io.err(`no row was graded: the judge ${run.judge} failed on every row (${statusList(run.judge_status_counts)}); see judge_status on the rows\n`);
  if (run.status === 'failed') {
    io.err(`run ${runId} failed: ${run.error ?? 'unknown error'}\n`);
    return 1;
  }
  if (run.status === 'cancelled') {
    io.err(`run ${runId} was cancelled; \`while-desk resume ${runId}\` finishes it\n`);
    return 130;
  }
  return 0;
}
