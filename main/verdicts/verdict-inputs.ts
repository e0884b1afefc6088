// The platform-shaped inputs of the verdict rules (platform-api.md §4.2 Dashboard, Behavior; §4.4 run rows), built
// from an agent's local runs, so shared/platform verdict / evalChecks / brief read them exactly as the site does.
import { scoresFor, type BehaviorWire, type DashboardWire, type JudgeWire, type RunRow } from '../../shared/platform/index';

/** One local run of the agent, scored: per behaviour (points, half-width, n), as the sweep scores an arm. */
export interface ScoredRun {
  id: string;
  version: string;
  createdAt: string;
  scores: Record<string, [number, number, number]>;
  /** What the run pinned: its model, and its prompt's hash when it replaced the tasks' prompt. */
  pins: Record<string, string>;
}

export interface VerdictFacts {
  agent: string;
  behavior: string;
  serving: string | null;
  /** Newest first. */
  runs: ScoredRun[];
  /** The test set's name: `t-` + the task set's hash, as a sweep names it. */
  testVersion: string | null;
  /** Module and rules judges are programs; an LLM judge is a judge. */
  gradedBy: 'program' | 'judge';
  judgeName: string | null;
  /** From gold labels on the rows (judge_trust), when any; measured, so verified. */
  agreement: { agreement: number; n: number } | null;
  /** §5.4 floor in points from the newest `--runs 2+` run, when any. */
  noiseFloor: number | null;
}

export interface PlatformInputs {
  dashboard: DashboardWire;
  behaviors: BehaviorWire[];
  runs: RunRow[];
}

function runRow(agent: string, run: ScoredRun): RunRow {
  return {
    id: run.id,
    agent,
    version: run.version,
    method: 'eval',
    createdAt: run.createdAt,
    record: { provenance: { pins: run.pins } },
    evals: Object.entries(run.scores).map(([behavior, [score, ci, n]]) => ({ behavior, version: run.version, score, ci, n, createdAt: run.createdAt })),
  };
}

export function platformInputs(facts: VerdictFacts): PlatformInputs {
  const runs = facts.runs.map((r) => runRow(facts.agent, r));
  const names = [...new Set(facts.runs.flatMap((r) => Object.keys(r.scores)))];
  if (!names.includes(facts.behavior)) names.unshift(facts.behavior);
  const judge: JudgeWire | null =
    facts.gradedBy === 'judge' || facts.agreement
      ? { name: facts.judgeName, agreement: facts.agreement?.agreement ?? null, humanN: facts.agreement?.n ?? null, verified: facts.agreement !== null }
      : null;
  // The dashboard lists versions oldest first (ties go to later entries, §5.1).
  const versions = scoresFor([...runs].reverse(), facts.behavior);
  const behaviors: BehaviorWire[] = names.map((name) => {
    const newest = scoresFor(runs, name)[0];
    return {
      name,
      testVersion: facts.testVersion,
      n: newest?.n ?? null,
      gradedBy: facts.gradedBy,
      ...(judge ? { judge } : {}),
      ...(name === facts.behavior ? { noiseFloor: facts.noiseFloor } : {}),
    };
  });
  const block = behaviors.find((b) => b.name === facts.behavior) ?? null;
  const dashboard: DashboardWire = {
    agent: { id: facts.agent, name: facts.agent, serving: facts.serving },
    behavior: versions.length ? block : null,
    behaviors: names,
    versions,
    deltas: [],
    verdict: { serving: facts.serving },
  };
  return { dashboard, behaviors, runs };
}
