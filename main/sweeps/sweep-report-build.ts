// The ranked report of a finished sweep, by shared/platform sweepReport (platform-api.md §6): a refused arm
// (graded rows per ask unlike the first arm's) fails the sweep with the platform's message, naming the arm.
import type { SweepConfig } from '../../shared/api/sweeps';
import { sweepReport, type SweepReport } from '../../shared/platform/index';
import type { Db } from '../db/connection';
import { readDatasetRows as loadRows } from '../rows/index';
import { getRun } from '../db/repos/runs';
import { sweepRuns } from '../db/repos/sweeps';
import { variantHarness } from '../../shared/api/sweep-variants';
import { toolNames } from './sweep-inputs';

export interface SweepOutcome {
  status: 'done' | 'failed';
  error: string | null;
  report: SweepReport | null;
}

export function buildSweepReport(db: Db, sweepId: string, config: SweepConfig): SweepOutcome {
  const links = sweepRuns(db, sweepId);
  const runOf = (arm: number, rerun: number) => links.find((l) => l.arm === arm && l.rerun === rerun)?.runId ?? null;
  const firstRun = runOf(0, 0);
  const tasks = firstRun ? (getRun(db, firstRun)?.tasks ?? []) : [];
  const variants = config.variants.map((variant, arm) => {
    const runId = runOf(arm, 0);
    return { harness: { ...variantHarness(variant, toolNames(tasks)), label: config.labels[arm] }, rows: runId ? loadRows(db, runId) : [] };
  });
  const noiseRows = Array.from({ length: Math.max(0, config.noise_runs - 1) }, (_, i) => {
    const runId = runOf(0, i + 1);
    return runId ? loadRows(db, runId) : [];
  });
  try {
    const report = sweepReport(variants, { k: config.k, behavior: config.behavior, noise_runs: config.noise_runs, noise_rows: noiseRows });
    const byLabel = new Map(config.labels.map((label, arm) => [label, runOf(arm, 0)]));
    for (const v of report.variants) v.run = byLabel.get(v.label) ?? null;
    return { status: 'done', error: null, report };
  } catch (error) {
    return { status: 'failed', error: `the sweep's report was refused: ${error instanceof Error ? error.message : String(error)}`, report: null };
  }
}
