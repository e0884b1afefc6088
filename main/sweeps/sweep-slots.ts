// The runs a sweep consists of: one per variant, then the first variant re-scored noise_runs - 1 times
// (platform-api.md §6 "Noise": seeds 1 .. noise_runs - 1), each with the settings of its run.
import type { SweepConfig } from '../../shared/api/sweeps';
import type { AgentSettings } from '../../shared/schema/run-settings';
import type { SweepRecord } from '../db/repos/sweeps';
import type { RunStartInput } from '../sim/runs-service';

export interface SweepSlot {
  arm: number;
  /** 0: the arm's scoring; 1 ..: a noise re-run of the first arm. */
  rerun: number;
  label: string;
}

export function sweepSlots(config: SweepConfig): SweepSlot[] {
  const arms = config.variants.map((_, arm) => ({ arm, rerun: 0, label: config.labels[arm] }));
  const reruns = Array.from({ length: Math.max(0, config.noise_runs - 1) }, (_, i) => ({ arm: 0, rerun: i + 1, label: config.labels[0] }));
  return [...arms, ...reruns];
}

/**
 * Re-run r scores with seed r. A seeded agent that pins its own seed would ignore the run's, so its pin moves by r
 * too: the re-run is the same variant drawn again, never the same draws twice (which would make the floor 0).
 */
function rerunAgent(agent: AgentSettings, rerun: number): AgentSettings {
  if (rerun === 0 || agent.kind !== 'seeded' || agent.seed === null) return agent;
  return { ...agent, seed: agent.seed + rerun };
}

/** The runs.start settings of one slot, less its task set (the sweep's frozen text). */
export function slotRunSettings(sweep: Pick<SweepRecord, 'name' | 'config'>, slot: SweepSlot): Omit<RunStartInput, 'tasks_text' | 'tasks_path'> {
  const { config } = sweep;
  const variant = config.variants[slot.arm];
  return {
    agent: rerunAgent(variant.agent, slot.rerun),
    judge: config.judge,
    k: config.k,
    runs: 1,
    concurrency: config.concurrency,
    seed: slot.rerun,
    max_turns: config.max_turns,
    // A sweep scores pass@1 and the judge's own markers, as the SDK's sweep does: no stamped markers on its rows.
    stamp_markers: false,
    name: `${sweep.name} · ${slot.label}${slot.rerun ? ` · noise re-run ${slot.rerun}` : ''}`,
    ...(variant.system_prompt !== undefined && variant.system_prompt !== null ? { system_prompt: variant.system_prompt } : {}),
  };
}
