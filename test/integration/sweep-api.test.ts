// The sweeps API in process (engine.call, as the app calls it): outputs checked against their schemas, live
// sweep.progress events, the report in sweeps.get, and the agents API on runs that name an agent and a version.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentsApi } from '../../shared/api/agents';
import type { SweepProgress } from '../../shared/api/sweeps';
import { sweepsApi } from '../../shared/api/sweeps';
import { createEngine, type Engine } from '../../main/engine/engine';
import { buildEngine } from '../helpers/build-engine';
import { runRows } from './sim-run-helpers';
import { referenceJudge, writeTasks } from './sweep-helpers';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wd-sweep-api-'));
const tasks = path.join(dir, 'tasks.jsonl');
let engine: Engine;

beforeAll(async () => {
  await buildEngine();
  writeTasks(tasks, 30);
  engine = createEngine({ dbPath: path.join(dir, 'api.sqlite') });
}, 120_000);
afterAll(async () => {
  await engine?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sweeps API', () => {
  it('starts, reports progress, waits and describes a sweep, every output in its declared shape', async () => {
    const events: SweepProgress[] = [];
    const off = engine.on('sweep.progress', (p) => events.push(p));
    const judge = { kind: 'module' as const, path: referenceJudge };
    const started = sweepsApi['sweeps.start'].output.parse(
      await engine.call('sweeps.start', {
        tasks_text: fs.readFileSync(tasks, 'utf8'),
        variants: [
          { label: 'a@seeded', system_prompt: 'A.', agent: { kind: 'seeded', misbehave_rate: 0.1, seed: 3 } },
          { label: 'b@seeded', agent: 'seeded' },
        ],
        judge,
        k: 40,
        concurrency: 4,
      }),
    );
    expect(started).toMatchObject({ labels: ['a@seeded', 'b@seeded'], expected_rows: 3 * 30 * 40, tasks: 30 });
    const waited = sweepsApi['sweeps.wait'].output.parse(await engine.call('sweeps.wait', { id: started.sweep_id }));
    off();
    expect(waited).toMatchObject({ status: 'done', stopped: true });
    const detail = sweepsApi['sweeps.get'].output.parse(await engine.call('sweeps.get', { id: started.sweep_id }));
    expect(detail.arms.map((a) => [a.label, a.rerun, a.status, a.rows])).toEqual([['a@seeded', 0, 'done', 1200], ['b@seeded', 0, 'done', 1200], ['a@seeded', 1, 'done', 1200]]);
    expect(detail.report?.variants.map((v) => v.run)).toEqual(expect.arrayContaining([detail.arms[0].run_id, detail.arms[1].run_id]));
    expect(detail.config.judge).toMatchObject({ kind: 'module', path: referenceJudge });
    const final = events.at(-1);
    expect(final).toMatchObject({ sweep_id: started.sweep_id, status: 'done', done: 3600, total: 3600 });
    expect(events.some((e) => e.status === 'running' && e.done > 0 && e.done < 3600)).toBe(true);
    expect(sweepsApi['sweeps.list'].output.parse(await engine.call('sweeps.list', {}))[0]).toMatchObject({ id: started.sweep_id, status: 'done' });
    const again = await engine.call('sweeps.resume', { id: started.sweep_id });
    expect(again).toMatchObject({ resumed: false });
  }, 120_000);

  it('refuses an unknown sweep and a bad variant agent with a message that says where', async () => {
    await expect(engine.call('sweeps.get', { id: 'sweep-nope' })).rejects.toMatchObject({ code: 'not_found' });
    await expect(
      engine.call('sweeps.start', { tasks_path: tasks, variants: [{ label: 'x', agent: 'gpt4' }], judge: { kind: 'module', path: referenceJudge } }),
    ).rejects.toMatchObject({ code: 'bad_input', message: expect.stringMatching(/variants\.0\.agent: unknown agent spec "gpt4"/) });
  });

  it('lists agents named by runs, promotes one version and gives its verdict, the judge agreement from app labels', async () => {
    const ids: string[] = [];
    for (const [version, rate] of [['v1', 0.5], ['v2', 0.02]] as const) {
      const run = await engine.call('runs.start', { tasks_path: tasks, agent: { kind: 'seeded', misbehave_rate: rate }, judge: { kind: 'module', path: referenceJudge }, k: 4, agent_name: 'api-bot', version });
      await engine.call('runs.wait', { id: run.run_id });
      ids.push(run.run_id);
    }
    // Gold labels on 20 rows of v2, agreeing with the judge on 19: the verdict reads the judge's agreement from them.
    const labeled = runRows(path.join(dir, 'api.sqlite'), ids[1]).slice(0, 20);
    for (const [i, { row }] of labeled.entries()) {
      const value = i === 0 ? 1 - (row.reward as number) : (row.reward as number);
      await engine.call('labels.append', { dataset_id: ids[1], row_key: `${String(row.scenario_id)}#${String(row.rollout_index)}`, annotator: 'ann', value: value as 0 | 1 });
    }
    const agents = agentsApi['agents.list'].output.parse(await engine.call('agents.list', {}));
    expect(agents).toEqual([{ name: 'api-bot', serving: null, versions: expect.arrayContaining([expect.objectContaining({ version: 'v1', runs: 1 })]) }]);
    expect(await engine.call('agents.promote', { agent: 'api-bot', version: 'v1' })).toEqual({ agent: 'api-bot', serving: 'v1', previous: null });
    const report = agentsApi['agents.verdict'].output.parse(await engine.call('agents.verdict', { agent: 'api-bot' }));
    expect(report.verdict).toMatchObject({ candidate: 'v2', serving: 'v1', graded_by: 'program', n: 30, judge_agreement: 0.95, judge_human_n: 20 });
    expect(report.verdict.line).toMatch(/^unproven: policy: v2 beats v1 by [0-9.]+ \(interval excludes zero, no noise floor declared\); graded by a program, n=30 \(n=30 under 50\)$/);
    await expect(engine.call('agents.verdict', { agent: 'nobody' })).rejects.toMatchObject({ code: 'not_found' });
  }, 60_000);
});

describe('closing the engine mid-sweep', () => {
  it('stops the arm that is going, leaves the sweep interrupted, and a new engine resumes it to exactly tasks x k per arm', async () => {
    const file = path.join(dir, 'close.sqlite');
    const first = createEngine({ dbPath: file });
    const judge = { kind: 'module' as const, path: referenceJudge };
    // A run started before the sweep registers its cleanup first: closing must still stop the sweep's own run.
    const plain = await first.call('runs.start', { tasks_path: tasks, agent: { kind: 'seeded' }, k: 1 });
    await first.call('runs.wait', { id: plain.run_id });
    const started = await first.call('sweeps.start', { tasks_path: tasks, variants: [{ label: 'a', agent: 'seeded' }, { label: 'b', agent: { kind: 'seeded', misbehave_rate: 0.6 } }], judge, k: 2000, noise_runs: 1, concurrency: 4 });
    await new Promise((resolve) => setTimeout(resolve, 800));
    const t0 = Date.now();
    await first.close();
    expect(Date.now() - t0).toBeLessThan(5000);
    const second = createEngine({ dbPath: file });
    try {
      const stopped = await second.call('sweeps.get', { id: started.sweep_id });
      expect(stopped.status).toBe('interrupted');
      expect(stopped.rows).toBeLessThan(started.expected_rows);
      const resumed = await second.call('sweeps.resume', { id: started.sweep_id });
      expect(resumed.resumed).toBe(true);
      expect((await second.call('sweeps.wait', { id: started.sweep_id })).status).toBe('done');
      const done = await second.call('sweeps.get', { id: started.sweep_id });
      expect(done.arms.map((a) => a.rows)).toEqual([60_000, 60_000]);
      expect(done.report?.variants).toHaveLength(2);
    } finally {
      await second.close();
    }
  }, 180_000);
});
