// The aimed queue's effect on a seeded run: how many labels until judge_trust reaches a verdict (trusted or
// fails, as the desk words it), labeling in the aimed order against a random order, with a known "true" gold.
// Two judges: a good one (true verdict: trusted) and one that passes failures (true verdict: fails). The numbers
// are printed (docs/labels.md quotes them); the test holds the aimed order to the right verdict at least as often
// as random order, in not many more labels.
import { describe, expect, it } from 'vitest';
import { aimedOrder } from '../../../main/labels/aimed';
import type { LabelState } from '../../../main/labels/current';
import { stratifiedOrder } from '../../../main/labels/queue-rows';
import { seededRandom, shuffle } from '../../../main/labels/seeded';
import type { QueueColumns } from '../../../main/rows/index';
import { judgeTrust } from '../../../shared/stats/judge-trust';
import { trustView, type VerdictWord } from '../../../shared/stats/trust-verdict';

type Obj = Record<string, unknown>;
const ROWS = 1500;
const TASKS = 120;
const STEP = 5;
const CAP = 600;
const SEEDS = 40;

interface Judge { name: string; passShare: number; rightWhenPass: number; rightWhenFail: number }
const JUDGES: Judge[] = [
  { name: 'good judge', passShare: 0.85, rightWhenPass: 0.99, rightWhenFail: 0.9 },
  { name: 'judge that passes failures', passShare: 0.85, rightWhenPass: 0.86, rightWhenFail: 0.95 },
];

/** The verdict judge_trust gives with every row labeled: what a sample should find. */
async function trueVerdict(judge: Judge, seed: number): Promise<VerdictWord> {
  const { rows, truth } = dataset(judge, seed);
  return trustView((await judgeTrust(rows.map((row, i) => ({ ...row, gold_reward: truth[i], gold_kind: 'human' })))) as unknown as Obj).word;
}

function dataset(judge: Judge, seed: number): { rows: Obj[]; truth: number[]; columns: QueueColumns[] } {
  const random = seededRandom(1000 + seed);
  const rows: Obj[] = [];
  const truth: number[] = [];
  for (let i = 0; i < ROWS; i++) {
    const reward = random() < judge.passShare ? 1 : 0;
    const right = random() < (reward ? judge.rightWhenPass : judge.rightWhenFail);
    truth.push(right ? reward : 1 - reward);
    const task = `task-${Math.floor(random() * TASKS)}`;
    rows.push({ scenario_id: task, rollout_index: i, prompt: `ask ${i}`, final_text: 'x'.repeat(40 + Math.floor(random() * 80)), reward, category: `c${i % 5}` });
  }
  const columns = rows.map((row, ordinal): QueueColumns => ({
    ordinal, rowKey: `${row.scenario_id as string}#${ordinal}`, scenarioId: row.scenario_id as string, reward: row.reward as number,
    judgeStatus: 'ok', category: row.category as string, task: row.scenario_id as string, goldState: 'none',
  }));
  return { rows, truth, columns };
}

async function labelsToVerdict(judge: Judge, seed: number, aimed: boolean): Promise<{ n: number; word: VerdictWord }> {
  const { rows, truth, columns } = dataset(judge, seed);
  const labeled = new Set<number>();
  const state: LabelState = { votes: new Map(), gold: new Map() };
  const base = Array.from(stratifiedOrder(columns, `sim-${seed}`));
  const randomOrder = shuffle(rows.map((_, i) => i), seededRandom(77 + seed));
  let queue: number[] = [];
  for (let n = STEP; n <= CAP; n += STEP) {
    if (aimed) queue = aimedOrder(columns, base, state, 'sim').map((a) => a.index);
    else queue = randomOrder.filter((i) => !labeled.has(i));
    for (const index of queue.slice(0, STEP)) {
      labeled.add(index);
      const key = columns[index].rowKey as string;
      state.votes.set(key, new Map([['sim', truth[index] as 0 | 1]]));
      state.gold.set(key, truth[index] ? 'pass' : 'fail');
    }
    const gold = [...labeled].map((i) => ({ ...rows[i], gold_reward: truth[i], gold_kind: 'human' }));
    const word = trustView((await judgeTrust(gold)) as unknown as Obj).word;
    if (word === 'trusted' || word === 'fails') return { n, word };
  }
  return { n: CAP, word: 'inconclusive' };
}

describe('aimed queue against random order', () => {
  it('reaches the judge_trust verdict in fewer labels on a seeded run', async () => {
    const lines: string[] = [];
    const results: Array<{ aimed: number; random: number; rightAimed: number; rightRandom: number }> = [];
    for (const judge of JUDGES) {
      const runs = { aimed: [] as Array<{ n: number; word: VerdictWord; truth: VerdictWord }>, random: [] as Array<{ n: number; word: VerdictWord; truth: VerdictWord }> };
      const truths = new Set<VerdictWord>();
      for (let seed = 0; seed < SEEDS; seed++) {
        const truth = await trueVerdict(judge, seed);
        truths.add(truth);
        runs.aimed.push({ ...(await labelsToVerdict(judge, seed, true)), truth });
        runs.random.push({ ...(await labelsToVerdict(judge, seed, false)), truth });
      }
      const mean = (list: Array<{ n: number }>) => list.reduce((s, r) => s + r.n, 0) / list.length;
      const right = (list: Array<{ word: VerdictWord; truth: VerdictWord }>) => list.filter((r) => r.word === r.truth).length;
      lines.push(`${judge.name} (truly ${[...truths].join('/')}): aimed ${mean(runs.aimed).toFixed(1)} labels (right verdict ${right(runs.aimed)}/${SEEDS}; ${runs.aimed.map((r) => r.n).join(' ')}), random ${mean(runs.random).toFixed(1)} (right ${right(runs.random)}/${SEEDS}; ${runs.random.map((r) => r.n).join(' ')})`);
      results.push({ aimed: mean(runs.aimed), random: mean(runs.random), rightAimed: right(runs.aimed), rightRandom: right(runs.random) });
    }
    console.log(lines.join('\n'));
    for (const result of results) {
      // As often right as random order, in about as many labels (seeded, so the same numbers every run).
      expect(result.rightAimed).toBeGreaterThanOrEqual(result.rightRandom);
      expect(result.aimed).toBeLessThanOrEqual(result.random * 1.25);
    }
  }, 240_000);
});
