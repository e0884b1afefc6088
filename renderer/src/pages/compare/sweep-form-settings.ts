// What the new-sweep form holds and how its variant rows become the variants `sweeps.start` takes (no React here, so
// it is tested on its own). The label rules are the engine's own (shared/api/sweep-variants.ts), checked as one types.
import type { SweepVariantSettings } from '../../../../shared/api/sweeps';
import { SWEEP_DEFAULTS } from '../../../../shared/api/sweeps';
import { variantLabels } from '../../../../shared/api/sweep-variants';
import { agentSettings, RUN_DEFAULTS, type AgentSettings } from '../../../../shared/schema/run-settings';
import { agentSettingsOf, defaultAgent, type AgentChoice } from '../runs/run-form-settings';

/** One variant as the editor holds it: a label, a system prompt, an agent and (seeded agent) its own seed. */
export interface VariantRow {
  key: number;
  label: string;
  /** Empty: each task keeps its own system prompt. */
  systemPrompt: string;
  agent: AgentChoice;
  /** Seeded agent: empty for the run's seed, or a whole number the arm pins. */
  seed: string;
}

let nextKey = 1;

export function newVariantRow(patch: Partial<Omit<VariantRow, 'key'>> = {}): VariantRow {
  return { key: nextKey++, label: '', systemPrompt: '', agent: defaultAgent, seed: '', ...patch };
}

/** The editor's row for a variant read from a variants file: the inverse of variantOf. */
export function rowOfVariant(variant: SweepVariantSettings): VariantRow {
  const agent: AgentSettings = variant.agent;
  const choice: AgentChoice =
    agent.kind === 'seeded'
      ? { ...defaultAgent, kind: 'seeded', misbehaveRate: agent.misbehave_rate }
      : agent.kind === 'llama'
        ? { ...defaultAgent, kind: 'llama', modelPath: agent.model_path, gpu: agent.gpu, threads: agent.threads === null ? '' : String(agent.threads), contextSize: agent.context_size === null ? '' : String(agent.context_size) }
        : { ...defaultAgent, kind: 'openai', openaiModel: agent.model, baseUrl: agent.base_url, apiKeyEnv: agent.api_key_env };
  const seed = agent.kind === 'seeded' && agent.seed !== null ? String(agent.seed) : '';
  return newVariantRow({ label: variant.label ?? '', systemPrompt: variant.system_prompt ?? '', agent: choice, seed });
}

export type VariantInput = { label?: string; system_prompt?: string; agent: AgentSettings };

/** The variant `sweeps.start` takes, or what is wrong with the row (the schema's own words). */
export function variantOf(row: VariantRow, index: number): { variant: VariantInput } | { problem: string } {
  const where = `variant ${index + 1}`;
  const choice = agentSettingsOf(row.agent);
  if ('problem' in choice) return { problem: `${where}: ${choice.problem}` };
  let agent = choice.settings;
  if (agent.kind === 'seeded' && row.seed.trim() !== '') {
    const parsed = agentSettings.safeParse({ ...agent, seed: Number(row.seed) });
    if (!parsed.success) return { problem: `${where}: seed: ${parsed.error.issues[0].message}` };
    agent = parsed.data;
  }
  const label = row.label.trim();
  return { variant: { ...(label ? { label } : {}), ...(row.systemPrompt !== '' ? { system_prompt: row.systemPrompt } : {}), agent } };
}

/** Every row as a variant, then the label rules over them all: the variants, or the first problem found. */
export function checkVariantRows(rows: readonly VariantRow[]): { variants: VariantInput[] } | { problem: string } {
  if (rows.length === 0) return { problem: 'add at least one variant' };
  const variants: VariantInput[] = [];
  for (const [i, row] of rows.entries()) {
    const one = variantOf(row, i);
    if ('problem' in one) return one;
    variants.push(one.variant);
  }
  try {
    variantLabels(variants, [], SWEEP_DEFAULTS.behavior);
    return { variants };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}

/** The form's numbers, each defaulted from the declarations (SWEEP_DEFAULTS, RUN_DEFAULTS). */
export const defaultSweepNumbers = {
  k: SWEEP_DEFAULTS.k,
  noiseRuns: SWEEP_DEFAULTS.noise_runs,
  concurrency: RUN_DEFAULTS.concurrency,
  maxTurns: RUN_DEFAULTS.max_turns,
};
