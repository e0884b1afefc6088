// sftFacts read for a min_reward skips the junk check and the behavior signature on rows below it; the selection
// and its report must be the ones made from facts read in full, and facts read for a higher bar are refused.
import { describe, expect, it } from 'vitest';
import { pyFloat } from '../../../shared/schema/py-json';
import { leakFact, selectForSft, sftFacts, SFT_SELECTIONS } from '../../../shared/training/index';

type Obj = Record<string, unknown>;

const REWARDS: unknown[] = [1, 0, 0.5, 0.75, null, undefined, 'high', true, pyFloat(1), NaN, 2, -1];

function rows(): Obj[] {
  const out: Obj[] = [];
  for (let i = 0; i < 120; i++) {
    const task = Math.floor(i / 5);
    const row: Obj = {
      prompt: `Customer ${task} asks about ORD-${100 + task}`,
      scenario_id: `task-${task}`,
      rollout_index: i % 5,
      steps: i % 3 ? [{ tool: ['lookup', 'refund'][i % 2], arguments: { order_id: `ORD-${100 + task}` }, result: { status: i % 4 ? 'ok' : 'not_found' } }] : [],
      final_text: i % 11 === 0 ? '' : i % 7 === 0 ? 'I cannot help with that.' : `Order ORD-${100 + task} is on its way (${i % 4} days).`,
    };
    const reward = REWARDS[i % REWARDS.length];
    if (reward !== undefined) row.reward = reward;
    if (i % 13 === 0) row.qwen_reward = 1;
    out.push(row);
  }
  return out;
}

describe('sftFacts with a min_reward', () => {
  for (const select of SFT_SELECTIONS) {
    for (const minReward of [0, 0.5, 1]) {
      it(`selects and reports as with full facts (${select}, min_reward ${minReward})`, () => {
        const all = rows();
        const full = all.map((row, i) => sftFacts(row, i, leakFact(row)));
        const light = all.map((row, i) => sftFacts(row, i, leakFact(row), minReward));
        expect(light.filter((f) => !f.detailed).length).toBeGreaterThan(10); // some rows did skip
        const options = { select, min_reward: minReward, target: 12, seed: 3 };
        expect(selectForSft(light, all.length, options)).toEqual(selectForSft(full, all.length, options));
      });
    }
  }

  it('refuses facts read for a higher min_reward than the selection uses', () => {
    const all = rows();
    const light = all.map((row, i) => sftFacts(row, i, leakFact(row), 1));
    expect(() => selectForSft(light, all.length, { min_reward: 0.5 })).toThrow(/higher min_reward/);
  });
});
