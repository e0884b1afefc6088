// What a results item carries beside the score and rows (platform-api §4.2-4.3): the noise floor from a
// `--runs N` run's re-scorings (§5.4, shared/platform noiseFloor), the judge's agreement with the gold labels on
// the rows (judge_trust, so `verified`), and a per-task pass-rate figure checked by the platform's figure rules.
// The re-scorings are split as main/verdicts splits them (byEvalRun), so the desk and the account agree.
import { checkFigure, figureNameFrom, type PlatformFigure } from '../../shared/platform/figure-rules';
import { noiseFloor } from '../../shared/platform/index';
import { judgeTrust } from '../../shared/stats/judge-trust';
import { byEvalRun } from '../verdicts/agent-verdict';

type Row = Record<string, unknown>;

export interface ResultsMeasures {
  /** Points; null without two or more re-scorings. */
  noise_floor: number | null;
  /** From gold labels on the rows; null without any. */
  judge: { agreement: number; humanN: number; verified: true } | null;
  figures: Array<{ name: string; figure: PlatformFigure; caption: string }>;
  notes: string[];
}

const BINS = 10;

/** Tasks by their pass rate, in ten bins: one bar trace, a few hundred bytes whatever the task count. */
export function passRateFigure(light: readonly Row[], behavior: string, version: string): { name: string; figure: PlatformFigure; caption: string } | string {
  const tasks = new Map<string, [number, number]>();
  for (const row of light) {
    if (row.reward !== 0 && row.reward !== 1) continue;
    const counts = tasks.get(String(row.scenario_id)) ?? [0, 0];
    counts[0] += row.reward as number;
    counts[1] += 1;
    tasks.set(String(row.scenario_id), counts);
  }
  const bins = new Array<number>(BINS).fill(0);
  for (const [passed, total] of tasks.values()) bins[Math.min(BINS - 1, Math.floor((passed / total) * BINS))] += 1;
  const x = bins.map((_, i) => (i === BINS - 1 ? `${i * 10}-100%` : `${i * 10}-${i * 10 + 9}%`));
  const name = figureNameFrom(`${behavior}-${version}-pass-rate`);
  const caption = `${behavior} ${version}: ${tasks.size} tasks by their pass rate over their asks`;
  const checked = checkFigure(name, { data: [{ type: 'bar', x, y: bins, name: 'tasks' }], layout: { xaxis: { title: { text: 'pass rate' } }, yaxis: { title: { text: 'tasks' } } } }, caption);
  return checked.ok ? { name, figure: checked.figure, caption } : `the pass-rate figure was not sent: ${checked.problems.join('; ')}`;
}

/** `light` is every row's scenario_id, reward and lineage; `gold` the rows that carry a gold_reward. */
export async function resultsMeasures(light: Row[], gold: Row[], options: { agent: string; behavior: string; version: string }): Promise<ResultsMeasures> {
  const notes: string[] = [];
  let floor: number | null = null;
  const scorings = byEvalRun(light);
  if (scorings.length >= 2) {
    try {
      floor = noiseFloor(options.behavior, scorings, { agent: options.agent, metric: 'pass_at_1' }).report.noise_floor;
    } catch (error) {
      notes.push(`no noise floor: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  let judge: ResultsMeasures['judge'] = null;
  if (gold.length) {
    const trust = await judgeTrust(gold);
    if (trust.agreement.agreement !== null) judge = { agreement: trust.agreement.agreement, humanN: trust.agreement.n, verified: true };
  }
  const figure = passRateFigure(light, options.behavior, options.version);
  if (typeof figure === 'string') notes.push(figure);
  return { noise_floor: floor, judge, figures: typeof figure === 'string' ? [] : [figure], notes };
}
