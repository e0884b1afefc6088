// Sweep variant labels, refused before the first rollout (platform-api.md §6 "Labels", §4.2 fingerprints).
import { StatsValueError } from '../stats/errors';
import { checkBehaviorName } from './behavior-wire';
import { harnessWire, makeHarness, promptOf, type Harness, type HarnessInput } from './harness';

/** RunSpec.version's cap: a label is a run version on the platform. */
export const LABEL_MAX = 40;

/** Refuses a label over 40 characters or two variants with one label. */
export function checkLabels(harnesses: readonly Harness[]): void {
  const seen = new Set<string>();
  harnesses.forEach((h, i) => {
    const label = h.version;
    const length = [...label].length;
    if (length > LABEL_MAX) {
      throw new StatsValueError(
        `variant ${i + 1} label "${label}" is ${length} characters; a run version holds ${LABEL_MAX}. ` +
          `Label it prompt@model with short names (careful@haiku45), not a sentence.`,
      );
    }
    if (seen.has(label)) throw new StatsValueError(`two variants are labelled "${label}" (the second is variant ${i + 1}); every variant needs its own label`);
    seen.add(label);
  });
}

export interface SweepLabels {
  behavior: string;
  labels: string[];
  fingerprints: string[];
  prompts: string[];
  wire: Array<Record<string, unknown>>;
}

/** The labels, fingerprints, prompt names and wire form of a sweep's harnesses, after the label rules. */
export function sweepLabels(inputs: readonly HarnessInput[], options: { behavior?: string } = {}): SweepLabels {
  const behavior = checkBehaviorName(options.behavior ?? 'policy');
  if (!Array.isArray(inputs)) throw new StatsValueError('sweep_labels: harnesses must be a list of {label?, instructions?, tools?, model?}');
  const harnesses = inputs.map((h) => makeHarness(h ?? {}));
  checkLabels(harnesses);
  return {
    behavior,
    labels: harnesses.map((h) => h.version),
    fingerprints: harnesses.map((h) => h.fingerprint),
    prompts: harnesses.map(promptOf),
    wire: harnesses.map(harnessWire),
  };
}
