// Results on the platform (platform-api §4): agent, behaviour, a tracked run with its score and examples, the
// graded rows in chunks of 500 with long texts cut in the middle; a retry (and a lost answer) changes nothing.
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Engine } from '../../main/engine/engine';
import { agentSlug } from '../../main/sync/results';
import { trimText } from '../../main/sync/trim-text';
import { startFakeWhilePlatform, type FakeWhilePlatform } from '../fixtures/fake-while-platform.mjs';
import { engineWithRows, signIn, tempDir, useFake } from './sync-helpers';

const ROWS = 620;
let fake: FakeWhilePlatform;
let engine: Engine;
let datasetId: string;

beforeAll(async () => {
  fake = await startFakeWhilePlatform();
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.reset();
  const dir = tempDir('wd-sync-results-');
  const home = path.join(dir, 'whileai');
  useFake(fake, home);
  signIn(fake, home);
  ({ engine, datasetId } = await engineWithRows(dir, ROWS, (i) => (i === 3 ? { final_text: 'x'.repeat(5000) } : {})));
});
afterEach(() => engine.close());

const post = () => engine.call('sync.pushResults', { dataset_id: datasetId, agent: 'Refund bot', version: 'v4', behavior: 'refunds', test_version: 't-1' });

describe('results', () => {
  it('registers the agent, declares the behaviour, posts the run, its score and its rows in chunks of 500', async () => {
    const result = await post();
    expect(result.item).toMatchObject({ state: 'done', kind: 'run.results' });
    // sdkRow: task = i / 4, reward 0 when i % 3 == 0; pass@1 is the mean of the task means
    expect(result.score).toMatchObject({ n: ROWS / 4 });
    expect(result.score.score).toBeGreaterThan(60);
    expect(result.score.score).toBeLessThan(70);
    expect(fake.agents()).toEqual([expect.objectContaining({ id: 'Refund-bot', name: 'Refund bot' })]);
    expect(fake.behaviors('Refund-bot').refunds).toMatchObject({ name: 'refunds', testVersion: 't-1', n: ROWS / 4 });
    const [run] = fake.runs();
    expect(run).toMatchObject({ agent: 'Refund-bot', version: 'v4', method: 'eval', targets: ['refunds'], status: 'evaluated' });
    expect(run.evals).toEqual([expect.objectContaining({ behavior: 'refunds', score: result.score.score, ci: result.score.ci, n: ROWS / 4, testVersion: 't-1' })]);
    const examples = run.evals[0].examples as Array<{ ok: boolean }>;
    expect(examples).toHaveLength(20);
    expect(examples.slice(0, 14).every((e) => !e.ok)).toBe(true);
    const chunks = fake.requests.filter((r) => r.route === 'POST /runs/:id/evals/:behavior/rows').map((r) => [r.body.offset, r.body.rows.length]);
    expect(chunks).toEqual([
      [0, 500],
      [500, 120],
    ]);
    const rows = fake.runRows(run.id, 'refunds');
    expect(rows).toHaveLength(ROWS);
    expect(Array.from(rows[3].reply as string)).toHaveLength(2000);
    expect(rows[3].reply).toContain('[... 3026 chars cut ...]');
  });

  it('repeats safely: an answer lost after the run was made, and a retry, leave one run with one score', async () => {
    fake.fault('POST /runs/:id/evals', { kind: 'reset', afterHandling: true });
    fake.fault('PATCH /runs/:id', { kind: 'status', status: 503, times: 3 });
    const first = await post();
    expect(first.item.state).toBe('queued');
    expect((await engine.call('sync.now', {})).done).toBe(1);
    const runs = fake.runs();
    expect(runs).toHaveLength(1);
    expect(runs[0].evals).toHaveLength(1);
    expect(fake.runRows(runs[0].id, 'refunds')).toHaveLength(ROWS);
  });

  it('refuses a behaviour name off the pattern before sending anything', async () => {
    await expect(engine.call('sync.pushResults', { dataset_id: datasetId, agent: 'a', version: 'v1', behavior: 'refund policy' })).rejects.toMatchObject({ code: 'bad_input' });
    expect(fake.requests).toHaveLength(0);
  });
});

describe('results in full', () => {
  it('posts the noise floor of a --runs 2 run, the judge agreement from gold labels, a checked figure, the experiment and notes', async () => {
    const dir = tempDir('wd-sync-results-full-');
    // Two scorings of every task (lineage.eval_run, as `run --runs 2` stamps it); gold labels on 80 rows, 10 of them disagreeing.
    // The second scoring fails more (every fifth row too), so the two differ and the floor is above 0.
    const reward = (i: number) => (i % 3 === 0 || (i % 4 >= 2 && i % 5 === 0) ? 0 : 1);
    const extra = (i: number) => ({
      lineage: { eval_run: i % 4 < 2 ? 0 : 1 },
      reward: reward(i),
      ...(i < 80 ? { gold_reward: i < 70 ? reward(i) : 1 - reward(i) } : {}),
    });
    const full = await engineWithRows(dir, 400, extra);
    try {
      const result = await full.engine.call('sync.pushResults', {
        dataset_id: full.datasetId,
        agent: 'Refund bot',
        version: 'v5',
        behavior: 'refunds',
        experiment: { question: 'Does the refund check cut wrong refunds?', decide: 'ship if above the floor' },
        notes: '## v5\nTwo scorings.',
      });
      expect(result.item.state).toBe('done');
      expect(result.measures.noise_floor).toBeGreaterThan(0); // the two scorings differ task by task
      expect(result.measures.judge).toMatchObject({ humanN: 80, verified: true });
      expect(result.measures.judge!.agreement).toBeCloseTo(70 / 80, 5);
      const behavior = fake.behaviors('Refund-bot').refunds;
      expect(behavior).toMatchObject({ noiseFloor: result.measures.noise_floor, judge: { agreement: result.measures.judge!.agreement, humanN: 80, verified: true } });
      const [run] = fake.runs();
      expect(run).toMatchObject({ notes: '## v5\nTwo scorings.', status: 'evaluated' });
      const figures = fake.requests.filter((r) => r.route === 'PUT /agents/:id/figures/:name');
      expect(figures).toHaveLength(1);
      const sent = figures[0].body as { figure: { data: Array<{ type: string; y: number[] }> }; run: string };
      expect(sent.run).toBe(run.id);
      expect(sent.figure.data[0].type).toBe('bar');
      expect(sent.figure.data[0].y.reduce((a, b) => a + b, 0)).toBe(100); // every task in one bin
      const experiment = fake.requests.find((r) => r.route === 'PUT /agents/:id/experiment');
      expect(experiment?.body).toEqual({ question: 'Does the refund check cut wrong refunds?', decide: 'ship if above the floor' });
    } finally {
      full.engine.close();
    }
  });

  it('a run scored once has no noise floor, and rows without gold no judge block', async () => {
    const result = await post();
    expect(result.measures).toMatchObject({ noise_floor: null, judge: null });
    expect(fake.behaviors('Refund-bot').refunds).not.toHaveProperty('noiseFloor');
    expect(result.measures.figures).toHaveLength(1);
  });
});

describe('text caps and names', () => {
  it('cuts text in the middle with the marker, to exactly the cap (code points)', () => {
    const cut = trimText('a'.repeat(1000) + 'b'.repeat(1500), 2000);
    expect(Array.from(cut)).toHaveLength(2000);
    expect(cut.startsWith('a'.repeat(900))).toBe(true);
    expect(cut.endsWith('b'.repeat(900))).toBe(true);
    expect(cut).toContain('\n[... 525 chars cut ...]\n');
    expect(trimText('short', 2000)).toBe('short');
    expect(Array.from(trimText('日本'.repeat(1500), 2000))).toHaveLength(2000);
    expect(agentSlug('Refund bot')).toBe('Refund-bot');
    expect(agentSlug('  --')).toBe('agent');
  });
});
