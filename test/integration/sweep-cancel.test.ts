// sweeps.cancel in process (as the app calls it): the arm going is cancelled the way runs.cancel cancels a run, the
// sweep reads cancelled (also to a new engine), resumes, and ends with the very report an uninterrupted sweep gives.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepsApi, type SweepDetail } from '../../shared/api/sweeps';
import { createEngine, type Engine } from '../../main/engine/engine';
import { buildEngine } from '../helpers/build-engine';
import { armRows, referenceJudge, writeTasks } from './sweep-helpers';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wd-sweep-cancel-'));
const tasks = path.join(dir, 'tasks.jsonl');
const dbPath = path.join(dir, 'cancel.sqlite');
let engine: Engine;

const input = () => ({
  tasks_path: tasks,
  variants: [
    { label: 'careful@seeded', system_prompt: 'Be careful.', agent: { kind: 'seeded' as const, misbehave_rate: 0.1, seed: 5 } },
    { label: 'hasty@seeded', system_prompt: 'Be fast.', agent: { kind: 'seeded' as const, misbehave_rate: 0.5, seed: 9 } },
  ],
  judge: { kind: 'module' as const, path: referenceJudge },
  k: 100,
  concurrency: 4,
});

/** The report less the run ids, which differ between two sweeps by construction. */
function comparable(report: SweepDetail['report']) {
  return report && { ...report, variants: report.variants.map((v) => ({ ...v, run: null })) };
}

beforeAll(async () => {
  await buildEngine();
  writeTasks(tasks, 30);
  engine = createEngine({ dbPath });
}, 120_000);
afterAll(async () => {
  await engine?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('sweeps.cancel', () => {
  it('cancels the arm going, keeps the sweep resumable across engines, and resumes to the uninterrupted report', async () => {
    const whole = await engine.call('sweeps.start', input());
    expect((await engine.call('sweeps.wait', { id: whole.sweep_id })).status).toBe('done');
    const reference = await engine.call('sweeps.get', { id: whole.sweep_id });
    expect(reference.report).not.toBeNull();

    // Cancelled as soon as the second arm is going: the first arm done, the second part way, the noise run not begun.
    const started = await engine.call('sweeps.start', input());
    const perRun = 30 * 100;
    const cancelled = await new Promise<unknown>((resolve, reject) => {
      const off = engine.on('sweep.progress', (p) => {
        if (p.sweep_id !== started.sweep_id || p.arm !== 1 || p.status !== 'running') return;
        off();
        engine.call('sweeps.cancel', { id: started.sweep_id }).then(resolve, reject);
      });
    });
    expect(sweepsApi['sweeps.cancel'].output.parse(cancelled)).toMatchObject({ sweep_id: started.sweep_id, cancelled: true, status: 'cancelled' });
    const stopped = sweepsApi['sweeps.get'].output.parse(await engine.call('sweeps.get', { id: started.sweep_id }));
    expect(stopped.status).toBe('cancelled');
    expect(stopped.report).toBeNull();
    expect(stopped.arms.map((a) => [a.label, a.rerun, a.status])).toEqual([['careful@seeded', 0, 'done'], ['hasty@seeded', 0, 'cancelled'], ['careful@seeded', 1, 'not started']]);
    expect(stopped.arms[1].rows).toBeLessThan(perRun);
    // The arm's run was cancelled as runs.cancel cancels one: its own status says so.
    expect((await engine.call('runs.get', { id: stopped.arms[1].run_id! })).status).toBe('cancelled');
    expect(await engine.call('sweeps.cancel', { id: started.sweep_id })).toMatchObject({ cancelled: false, status: 'cancelled' });
    expect((await engine.call('sweeps.list', {})).find((s) => s.id === started.sweep_id)?.status).toBe('cancelled');

    // Still cancelled to a new engine on the same database, which resumes it.
    await engine.close();
    engine = createEngine({ dbPath });
    expect((await engine.call('sweeps.get', { id: started.sweep_id })).status).toBe('cancelled');
    const resumed = await engine.call('sweeps.resume', { id: started.sweep_id });
    expect(resumed).toMatchObject({ resumed: true, message: expect.stringMatching(/^resuming: \d+ of 9000 rollouts to go$/) });
    expect((await engine.call('sweeps.wait', { id: started.sweep_id })).status).toBe('done');
    const done = await engine.call('sweeps.get', { id: started.sweep_id });
    expect(armRows(dbPath, started.sweep_id).map((a) => [a.rows, a.slots])).toEqual([[perRun, perRun], [perRun, perRun], [perRun, perRun]]);
    expect(comparable(done.report)).toEqual(comparable(reference.report));
    expect(done.report?.variants.map((v) => v.run)).toEqual(expect.arrayContaining([done.arms[0].run_id, done.arms[1].run_id]));
  }, 180_000);

  it('refuses an unknown sweep and leaves a finished one as it is', async () => {
    await expect(engine.call('sweeps.cancel', { id: 'sweep-nope' })).rejects.toMatchObject({ code: 'not_found' });
    const [finished] = (await engine.call('sweeps.list', {})).filter((s) => s.status === 'done');
    expect(await engine.call('sweeps.cancel', { id: finished.id })).toMatchObject({ cancelled: false, status: 'done', message: expect.stringMatching(/is done; nothing to cancel/) });
  });
});
