// The agents registry: agents are the names runs carry (`run --agent-name NAME --version V`); one version each is
// marked serving (`promote`), and the verdict reads every other version against it.
import { ApiError } from '../../shared/api/define';
import { allServing, setServing } from '../db/repos/agents';
import { listRuns } from '../db/repos/runs';
import type { EngineContext } from '../engine/context';
import { agentRuns } from './agent-verdict';

export interface AgentSummary {
  name: string;
  serving: string | null;
  versions: Array<{ version: string; runs: number; newest: string }>;
}

export function listAgents(ctx: EngineContext): AgentSummary[] {
  const serving = allServing(ctx.db);
  const by = new Map<string, Map<string, { runs: number; newest: string }>>();
  for (const run of listRuns(ctx.db)) {
    const { agent_name: name, version } = run.config;
    if (!name || !version) continue;
    const versions = by.get(name) ?? new Map<string, { runs: number; newest: string }>();
    const seen = versions.get(version);
    versions.set(version, { runs: (seen?.runs ?? 0) + 1, newest: seen && seen.newest > run.createdAt ? seen.newest : run.createdAt });
    by.set(name, versions);
  }
  return [...by.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, versions]) => ({ name, serving: serving.get(name) ?? null, versions: [...versions.entries()].map(([version, v]) => ({ version, ...v })) }));
}

/** Marks a version serving; it must be a version some finished run of the agent scored. */
export function promote(ctx: EngineContext, agent: string, version: string): { agent: string; serving: string; previous: string | null } {
  const runs = agentRuns(ctx, agent);
  if (!runs.length) throw new ApiError('not_found', `no finished run of agent "${agent}"; runs name their agent with --agent-name`, 'agent');
  const versions = [...new Set(runs.map((r) => r.config.version as string))];
  if (!versions.includes(version)) throw new ApiError('not_found', `agent "${agent}" has no finished run of version "${version}"; its versions: ${versions.join(', ')}`, 'version');
  const previous = allServing(ctx.db).get(agent) ?? null;
  setServing(ctx.db, agent, version);
  return { agent, serving: version, previous };
}
