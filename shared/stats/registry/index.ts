// Every statistic, declared once (define.ts says what an entry holds). The API (shared/api/stats.ts), the
// worker job (main/stats-workers/jobs.ts), the `while-desk stats` flags and the conformance binding read this list.
// Adding a statistic: write its function in shared/stats/, declare it in a file here, add it to this list.
import { compareStatistic } from './compare';
import { compareReportStatistic } from './compare-report';
import { curriculumStatistic } from './curriculum';
import { decontaminateStatistic } from './decontaminate';
import { deltaStatistic } from './delta';
import { evalVarianceStatistic } from './eval-variance';
import { hackScanStatistic } from './hack-scan';
import { holdoutSizeStatistic } from './holdout-size';
import { judgeTrustStatistic } from './judge-trust';
import { passAtStatistic } from './pass-at';
import { reliabilityStatistic } from './reliability';

export const statistics = [
  passAtStatistic,
  reliabilityStatistic,
  curriculumStatistic,
  judgeTrustStatistic,
  compareStatistic,
  deltaStatistic,
  compareReportStatistic,
  evalVarianceStatistic,
  holdoutSizeStatistic,
  decontaminateStatistic,
  hackScanStatistic,
] as const;

export type AnyStatistic = (typeof statistics)[number];
export type StatName = AnyStatistic['name'];
export type StatMethod = AnyStatistic['method'];

/** The statistic of that name (`pass_at`) or command (`pass-at`). */
export function statisticNamed(name: string): AnyStatistic | undefined {
  return statistics.find((stat) => stat.name === name || stat.command === name);
}

export * from './define';
