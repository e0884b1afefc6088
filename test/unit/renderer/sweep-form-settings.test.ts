// The new-sweep form's variant rows become the variants sweeps.start takes, refused inline by the engine's label rules.
import { describe, expect, it } from 'vitest';
import { SWEEP_DEFAULTS, sweepStartInput } from '../../../shared/api/sweeps';
import { parseVariantsJson } from '../../../shared/api/sweep-variants';
import { RUN_DEFAULTS } from '../../../shared/schema/run-settings';
import { defaultAgent } from '../../../renderer/src/pages/runs/run-form-settings';
import { checkVariantRows, defaultSweepNumbers, newVariantRow, rowOfVariant } from '../../../renderer/src/pages/compare/sweep-form-settings';

const seeded = (rate: number) => ({ ...defaultAgent, misbehaveRate: rate });

describe('new-sweep form settings', () => {
  it('starts from the declared defaults and gives a valid sweeps.start input with per-variant seeded settings', () => {
    expect(defaultSweepNumbers).toEqual({ k: SWEEP_DEFAULTS.k, noiseRuns: SWEEP_DEFAULTS.noise_runs, concurrency: RUN_DEFAULTS.concurrency, maxTurns: RUN_DEFAULTS.max_turns });
    const checked = checkVariantRows([
      newVariantRow({ label: 'careful@seeded', systemPrompt: 'Be careful.', agent: seeded(0.05), seed: '1' }),
      newVariantRow({ label: ' hasty@seeded ', agent: seeded(0.6) }),
    ]);
    expect(checked).toEqual({
      variants: [
        { label: 'careful@seeded', system_prompt: 'Be careful.', agent: { kind: 'seeded', misbehave_rate: 0.05, seed: 1 } },
        { label: 'hasty@seeded', agent: { kind: 'seeded', misbehave_rate: 0.6, seed: null } },
      ],
    });
    if (!('variants' in checked)) throw new Error('unreachable');
    const input = sweepStartInput.parse({ tasks_text: '{}', variants: checked.variants, judge: { kind: 'module', path: 'j.mjs' } });
    expect(input).toMatchObject({ k: SWEEP_DEFAULTS.k, noise_runs: SWEEP_DEFAULTS.noise_runs, behavior: SWEEP_DEFAULTS.behavior });
  });

  it('refuses a label over 40 characters and two equal labels in the SDK words, and a bad seed by its variant', () => {
    const long = 'a'.repeat(41);
    expect(checkVariantRows([newVariantRow({ label: 'ok' }), newVariantRow({ label: long })])).toEqual({
      problem: `variant 2 label "${long}" is 41 characters; a run version holds 40. Label it prompt@model with short names (careful@haiku45), not a sentence.`,
    });
    expect(checkVariantRows([newVariantRow({ label: 'x' }), newVariantRow({ label: 'x' })])).toEqual({
      problem: 'two variants are labelled "x" (the second is variant 2); every variant needs its own label',
    });
    // Two unlabelled variants with one prompt and agent get one fingerprint label: refused as the engine refuses them.
    expect(checkVariantRows([newVariantRow(), newVariantRow()])).toMatchObject({ problem: expect.stringMatching(/^two variants are labelled "h-/) });
    expect(checkVariantRows([newVariantRow({ seed: '1.5' })])).toMatchObject({ problem: expect.stringMatching(/^variant 1: seed: /) });
    expect(checkVariantRows([newVariantRow({ agent: { ...defaultAgent, kind: 'openai' } })])).toMatchObject({ problem: 'variant 1: model: name the model' });
    expect(checkVariantRows([])).toEqual({ problem: 'add at least one variant' });
  });

  it('reads a variants file into rows and back to the same variants', () => {
    const text = JSON.stringify([
      { label: 'a@seeded', system_prompt: 'A.', agent: { kind: 'seeded', misbehave_rate: 0.1, seed: 3 } },
      { label: 'b@openai', agent: 'openai:m@http://127.0.0.1:9/v1' },
    ]);
    const read = parseVariantsJson(text, 'v.json');
    if (!('variants' in read)) throw new Error(read.problem);
    const back = checkVariantRows(read.variants.map(rowOfVariant));
    expect(back).toEqual({
      variants: [
        { label: 'a@seeded', system_prompt: 'A.', agent: { kind: 'seeded', misbehave_rate: 0.1, seed: 3 } },
        { label: 'b@openai', agent: expect.objectContaining({ kind: 'openai', model: 'm', base_url: 'http://127.0.0.1:9/v1' }) },
      ],
    });
    expect(parseVariantsJson('[{"label": "x", "agent": "gpt4"}]', 'v.json')).toMatchObject({ problem: expect.stringMatching(/^v\.json: 0\.agent: unknown agent spec "gpt4"/) });
    expect(parseVariantsJson('[', 'v.json')).toMatchObject({ problem: expect.stringMatching(/^v\.json: /) });
  });
});
