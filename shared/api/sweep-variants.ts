// A sweep's variants checked by the rules the engine refuses them by, here in shared/ so the engine, the CLI's
// variants file and the app's new-sweep form (inline, before anything starts) all use this one implementation.
import { z } from '../schema/zod';
import { sweepLabels, type HarnessInput } from '../platform/index';
import { agentLabel, type AgentSettings } from '../schema/run-settings';
import { describeZodError } from './define';
import { sweepVariant, type SweepVariantSettings } from './sweeps';

/** The harness a variant is on the platform: its label, its prompt as instructions, the tasks' tools, the agent as model. */
export function variantHarness(variant: { label?: string; system_prompt?: string | null; agent: AgentSettings }, tools: readonly string[]): HarnessInput {
  return { label: variant.label ?? null, instructions: variant.system_prompt ?? null, tools: [...tools], model: agentLabel(variant.agent) };
}

/**
 * The labels after the platform's label rules (40 characters, unique; a missing one becomes h-<fingerprint>), or
 * throws the SDK's message. The tools only change what a missing label becomes, never whether the labels pass: every
 * variant of a sweep answers the same tasks, so the form may check with no tools before the task file is read.
 */
export function variantLabels(variants: ReadonlyArray<{ label?: string; system_prompt?: string | null; agent: AgentSettings }>, tools: readonly string[], behavior: string): string[] {
  return sweepLabels(variants.map((v) => variantHarness(v, tools)), { behavior }).labels;
}

export const variantsFile = z.array(sweepVariant).min(1, 'list at least one variant');

/** A variants file's text (docs/sweeps.md), checked; `where` names the file in the message. */
export function parseVariantsJson(text: string, where: string): { variants: SweepVariantSettings[] } | { problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { problem: `${where}: ${(error as Error).message}` };
  }
  const checked = variantsFile.safeParse(parsed);
  if (!checked.success) return { problem: `${where}: ${describeZodError(checked.error)} (a list of {"label", "system_prompt", "agent"}; see docs/sweeps.md)` };
  return { variants: checked.data };
}
