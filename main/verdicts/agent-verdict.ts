// An agent's verdict from its local runs: each run scored per behaviour as a sweep arm is (pass@1 x 100 ± half the
// interval, n = asks; markers on 3+ tasks), the noise floor from its newest `--runs 2+` run (§5.4), the judge's
// agreement from gold labels on the rows; then shared/platform verdict, evalChecks and brief (§5.1-5.3).
import { createHash } from 'node:crypto';
import { ApiError } from '../../shared/api/define';
import type { RunConfig } from '../../shared/api/runs';
import { brief, evalChecks, noiseFloor, verdict, type Brief, type EvalHealth, type VerdictResult } from '../../shared/platform/index';
import { armScores } from '../../shared/platform/sweep-scores';
import { agentLabel, isModelJudge, judgeLabel } from '../../shared/schema/run-settings';
import { judgeTrust } from '../../shared/stats/judge-trust';
import { servingVersion } from '../db/repos/agents';
import { readDatasetRows as loadRows } from '../rows/index';
import { listRuns, type RunListEntry } from '../db/repos/runs';
import type { EngineContext } from '../engine/context';
import { platformInputs, type PlatformInputs, type ScoredRun } from './verdict-inputs';

type Row = Record<string, unknown>;

export interface AgentVerdict {
  agent: string;
  behavior: string;
  verdict: VerdictResult;
  checks: EvalHealth;
  brief: Brief;
  inputs: PlatformInputs;
}

const evalRunOf = (row: Row) => {
  const lineage = row.lineage as Row | undefined;
  return typeof lineage?.eval_run === 'number' ? lineage.eval_run : 0;
};

/** The agent's finished runs, newest first. */
export function agentRuns(ctx: EngineContext, agent: string): RunListEntry[] {
  return listRuns(ctx.db).filter((r) => r.config.agent_name === agent && r.status === 'done' && r.config.version);
}

function pins(config: RunConfig): Record<string, string> {
  const out: Record<string, string> = { model: agentLabel(config.agent) };
  if (config.system_prompt !== null) out.prompt = createHash('sha256').update(config.system_prompt).digest('hex').slice(0, 12);
  return out;
}

/** The rows split by eval run (a `--runs N` run holds N scorings of one version). */
export function byEvalRun(rows: Row[]): Row[][] {
  const groups = new Map<number, Row[]>();
  for (const row of rows) groups.set(evalRunOf(row), [...(groups.get(evalRunOf(row)) ?? []), row]);
  return [...groups.entries()].sort(([a], [b]) => a - b).map(([, list]) => list);
}

export async function agentVerdict(ctx: EngineContext, agent: string, options: { behavior?: string; version?: string } = {}): Promise<AgentVerdict> {
  const behavior = options.behavior ?? 'policy';
  const runs = agentRuns(ctx, agent);
  if (!runs.length) throw new ApiError('not_found', `no finished run of agent "${agent}": start one with \`while-desk run ... --agent-name ${agent} --version V\``, 'agent');
  const scored: ScoredRun[] = [];
  let floor: number | null = null;
  const gold: Row[] = [];
  for (const run of runs) {
    const scorings = byEvalRun(loadRows(ctx.db, run.id));
    // The version's score is its first scoring; the others are re-runs of the same eval (the noise floor).
    const first = scorings[0] ?? [];
    // An ungraded run (no judge) scores nothing: it is listed by the platform but has no evals.
    const graded = first.some((row) => row.reward !== null && row.reward !== undefined);
    scored.push({ id: run.id, version: run.config.version as string, createdAt: run.finishedAt ?? run.createdAt, scores: graded ? armScores(first, run.config.k, 'policy') : {}, pins: pins(run.config) });
    if (floor === null && scorings.length >= 2) {
      floor = noiseFloor(behavior, scorings, { agent, metric: behavior === 'policy' ? 'pass_at_1' : `marker:${behavior}` }).report.noise_floor;
    }
    for (const list of scorings) for (const row of list) if (row.gold_reward !== undefined && row.gold_reward !== null) gold.push(row);
  }
  let agreement: { agreement: number; n: number } | null = null;
  if (gold.length) {
    const trust = await judgeTrust(gold);
    if (trust.agreement.agreement !== null) agreement = { agreement: trust.agreement.agreement, n: trust.agreement.n };
  }
  const newest = runs[0].config;
  const inputs = platformInputs({
    agent,
    behavior,
    serving: servingVersion(ctx.db, agent),
    runs: scored,
    testVersion: `t-${newest.tasks_sha256.slice(0, 8)}`,
    gradedBy: newest.judge && !isModelJudge(newest.judge) ? 'program' : 'judge',
    judgeName: newest.judge ? judgeLabel(newest.judge) : null,
    agreement,
    noiseFloor: floor,
  });
  let resolved: VerdictResult;
  try {
    resolved = verdict(inputs.dashboard, inputs.behaviors, inputs.runs, { behavior, version: options.version ?? null });
  } catch (error) {
    throw new ApiError('bad_input', error instanceof Error ? error.message : String(error), 'version');
  }
  const block = inputs.behaviors.find((b) => b.name === behavior) ?? { name: behavior };
  return { agent, behavior, verdict: resolved, checks: evalChecks(block, inputs.dashboard.versions ?? []), brief: brief(inputs.dashboard, inputs.behaviors, inputs.runs), inputs };
}
