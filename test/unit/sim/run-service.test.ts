// The runs service in process: one status for runs and datasets, runs stored by the previous build resume,
// waiting for a run through the API, and a finished run left alone by resume.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runsApi } from '../../../shared/api/runs';
import { createEngine, type Engine } from '../../../main/engine/engine';
import { buildEngine } from '../../helpers/build-engine';

const tasksFile = path.resolve(__dirname, '../../fixtures/tasks/support.jsonl');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wd-run-service-'));
const engines: Engine[] = [];
beforeAll(() => buildEngine(), 120_000);
afterAll(async () => {
  for (const engine of engines) await engine.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function engine(): Engine {
  const created = createEngine({ dbPath: path.join(dir, `db-${engines.length}.sqlite`) });
  engines.push(created);
  return created;
}

async function finishedRun(e: Engine, extra: Record<string, unknown> = {}) {
  const started = await e.call('runs.start', { tasks_path: tasksFile, agent: { kind: 'seeded' }, k: 2, ...extra });
  expect(await e.call('runs.wait', { id: started.run_id })).toEqual({ run_id: started.run_id, status: 'done', stopped: true });
  return started.run_id;
}

/** A pid that surely belongs to no live process: one that just exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}

describe('the runs service', () => {
  it('shows a run whose process died as interrupted in runs and in datasets alike', async () => {
    const e = engine();
    const id = await finishedRun(e);
    e.ctx.db.prepare(`UPDATE runs SET status = 'running', pid = ? WHERE id = ?`).run(deadPid(), id);
    e.ctx.db.prepare(`UPDATE datasets SET status = 'running' WHERE id = ?`).run(id);
    const runs = await e.call('runs.list', {});
    const datasets = await e.call('datasets.list', {});
    expect(runs.find((r) => r.id === id)?.status).toBe('interrupted');
    expect(datasets.find((d) => d.id === id)?.status).toBe('interrupted');
    expect((await e.call('datasets.get', { id })).status).toBe('interrupted');
    expect((await e.call('runs.get', { id })).status).toBe('interrupted');
  });

  it('reads and resumes a run stored by the previous build, with its agent and judge as strings', async () => {
    const e = engine();
    const judge = path.join(dir, 'judge.mjs');
    fs.writeFileSync(judge, 'export default (row) => (row.seeded.length === 0 ? 1 : 0);\n');
    const id = await finishedRun(e);
    const stored = JSON.parse((e.ctx.db.prepare('SELECT config_json FROM runs WHERE id = ?').get(id) as { config_json: string }).config_json) as Record<string, unknown>;
    const legacy = {
      tasks_path: stored.tasks_path,
      tasks_sha256: stored.tasks_sha256,
      tasks_count: stored.tasks_count,
      agent: 'seeded',
      k: 2,
      runs: 1,
      judge,
      rubric: null,
      seed: 0,
      max_turns: 8,
      concurrency: 8,
      misbehave_rate: 0.5,
      api_key_env: null,
      gpu: 'auto',
      threads: null,
      context_size: null,
    };
    e.ctx.db.prepare(`UPDATE runs SET config_json = ?, status = 'cancelled' WHERE id = ?`).run(JSON.stringify(legacy), id);
    // As if the run had stopped after 10 rows: the rows module keeps each dataset's row count with its rows.
    e.ctx.db.prepare('DELETE FROM rows WHERE dataset_id = ? AND ordinal >= 10').run(id);
    e.ctx.db.prepare('UPDATE datasets SET row_count = 10 WHERE id = ?').run(id);
    const before = await e.call('runs.get', { id });
    expect(before.config.agent).toEqual({ kind: 'seeded', misbehave_rate: 0.5, seed: null });
    expect(before.config.judge).toEqual({ kind: 'module', path: judge, timeout_s: 10 });
    expect(before).toMatchObject({ status: 'cancelled', agent: 'seeded', judge: 'judge.mjs', rows: 10 });
    const resumed = await e.call('runs.resume', { id });
    expect(resumed).toMatchObject({ remaining: 6, resumed: true });
    await e.call('runs.wait', { id });
    const after = await e.call('runs.get', { id });
    expect(after).toMatchObject({ status: 'done', rows: 16 });
    expect(after.judge_status_counts.ok).toBe(6);
  });

  it('leaves a finished run exactly as it is when asked to resume it', async () => {
    const e = engine();
    const id = await finishedRun(e);
    const before = await e.call('runs.get', { id });
    const resumed = await e.call('runs.resume', { id });
    expect(resumed).toEqual({ run_id: id, expected_rows: 16, remaining: 0, resumed: false, message: expect.stringMatching(/already done \(16 of 16 rows\)/) });
    expect(await e.call('runs.get', { id })).toEqual(before);
    // Every output keeps to its declared schema.
    expect(runsApi['runs.get'].output.parse(before)).toEqual(before);
    expect(runsApi['runs.resume'].output.parse(resumed)).toEqual(resumed);
    const list = await e.call('runs.list', {});
    expect(runsApi['runs.list'].output.parse(list)).toEqual(list);
  });

  it('waits for a run through the API, with a timeout', async () => {
    const e = engine();
    const started = await e.call('runs.start', { tasks_path: tasksFile, agent: { kind: 'seeded' }, k: 5000, concurrency: 2 });
    const early = await e.call('runs.wait', { id: started.run_id, timeout_s: 0.05 });
    expect(early).toEqual({ run_id: started.run_id, status: 'running', stopped: false });
    await e.call('runs.cancel', { id: started.run_id });
    expect(await e.call('runs.wait', { id: started.run_id })).toEqual({ run_id: started.run_id, status: 'cancelled', stopped: true });
    await expect(e.call('runs.wait', { id: 'run-missing' })).rejects.toMatchObject({ code: 'not_found' });
  });

  it('refuses a judge that does not load, and a missing model, before any run exists', async () => {
    const e = engine();
    const bad = path.join(dir, 'no-default.mjs');
    fs.writeFileSync(bad, 'export const x = 1;\n');
    await expect(e.call('runs.start', { tasks_path: tasksFile, agent: { kind: 'seeded' }, judge: { kind: 'module', path: bad } })).rejects.toThrow(/no-default\.mjs/);
    await expect(e.call('runs.start', { tasks_path: tasksFile, agent: { kind: 'llama', model_path: path.join(dir, 'none.gguf') } })).rejects.toThrow(/no model file at .*none\.gguf/);
    await expect(e.call('runs.start', { tasks_path: tasksFile, agent: { kind: 'seeded' }, judge: { kind: 'rules', path: path.join(dir, 'none.json') } })).rejects.toMatchObject({ code: 'bad_input' });
    expect(await e.call('runs.list', {})).toEqual([]);
    expect(await e.call('datasets.list', {})).toEqual([]);
  });
});
