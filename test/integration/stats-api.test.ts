// The stats API end to end: a JSONL imported through the engine, statistics computed in the worker pool.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../shared/api/define';
import { compareRuns } from '../../shared/stats/compare-runs';
import { curriculum } from '../../shared/stats/curriculum';
import { deltaReport } from '../../shared/stats/delta-report';
import { judgeTrust } from '../../shared/stats/judge-trust';
import { passAt, passAtDict } from '../../shared/stats/pass-at';
import { loadJudge } from '../../main/judges/load-judge';
import { judgeFunction } from '../../main/stats-workers/jobs';
import { prestartStatsWorker, StatsPool } from '../../main/stats-workers/pool';
import { importFile } from '../../main/cli/import-file';
import { readDatasetRows as loadRows } from '../../main/rows/index';
import { createEngine, type Engine } from '../../main/engine/engine';
import { statsHandlers } from '../../main/engine/handlers/stats';
import { statisticSchemas } from '../../shared/api/stats';
import { statistics } from '../../shared/stats/registry/index';
import { buildEngine } from '../helpers/build-engine';

let dir: string;
let engine: Engine;
let datasetId: string;
let otherId: string;

/** 30 tasks x 4 rollouts with task-dependent pass rates, plus a few rows the readers must skip. */
function writeRows(file: string, shift: number): void {
  const lines: string[] = [];
  for (let t = 0; t < 30; t++) {
    for (let r = 0; r < 4; r++) {
      const reward = (t * 7 + r * 3 + shift) % 5 < (t % 5) ? 1 : 0;
      lines.push(JSON.stringify({ scenario_id: `task_${String(t).padStart(2, '0')}`, rollout_index: r, prompt: `Question ${t}?`, final_text: `Answer ${t}.${r}`, steps: [], reward, sampling: { temperature: 0.7 } }));
    }
  }
  lines.push(JSON.stringify({ scenario_id: 'task_half', rollout_index: 0, prompt: 'Half?', final_text: 'half', steps: [], reward: 0.5 }));
  fs.writeFileSync(file, lines.join('\n') + '\n');
}

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    return error as ApiError;
  }
  throw new Error('expected the call to fail');
}

beforeAll(async () => {
  await buildEngine();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stats-api-'));
  engine = createEngine({ dbPath: path.join(dir, 'desk.db'), checkOutputs: true });
  writeRows(path.join(dir, 'a.jsonl'), 0);
  writeRows(path.join(dir, 'b.jsonl'), 2);
  const a = await importFile(engine, path.join(dir, 'a.jsonl'), { name: 'a', skipInvalid: false });
  const b = await importFile(engine, path.join(dir, 'b.jsonl'), { name: 'b', skipInvalid: false });
  expect(a.errors).toEqual([]);
  datasetId = a.dataset_id as string;
  otherId = b.dataset_id as string;
});

afterAll(async () => {
  await engine?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

describe('stats API through the worker pool', () => {
  it('stats.passAt equals a direct passAt on the same rows', async () => {
    const states: string[] = [];
    const stop = engine.on('stats.job', (event) => states.push(event.state));
    const out = await engine.call('stats.passAt', { dataset_id: datasetId, k: 2, min_k: 2, per_task: true });
    stop();
    const rows = loadRows(engine.ctx.db, datasetId);
    const direct = passAt(rows, { k: 2, min_k: 2 });
    expect(out.report).toEqual(JSON.parse(JSON.stringify(passAtDict(direct))));
    expect(out.per_task).toEqual(direct.per_task);
    expect(out.report.n_groups).toBe(30);
    expect(typeof out.job_id).toBe('string');
    expect(states).toEqual(['queued', 'running', 'done']);
  });

  it('curriculum, compare and reliability come back SDK-shaped', async () => {
    const rows = loadRows(engine.ctx.db, datasetId);
    const cur = await engine.call('stats.curriculum', { dataset_id: datasetId, band: [0.25, 0.75], tiers: 2 });
    expect(cur.report).toEqual(JSON.parse(JSON.stringify(curriculum(rows, { band: [0.25, 0.75], tiers: 2 }))));
    const cut = await engine.call('stats.curriculum', { dataset_id: datasetId, list_limit: 3 });
    expect((cut.report.schedule as unknown[]).length).toBeLessThanOrEqual(3);
    expect(cut.tier_sizes?.reduce((a, b) => a + b, 0)).toBe(cut.report.n_trainable);
    const cmp = await engine.call('stats.compare', { a: datasetId, b: otherId, n_boot: 500 });
    const direct = compareRuns(rows, loadRows(engine.ctx.db, otherId), { n_boot: 500 });
    expect(cmp.report).toEqual(JSON.parse(JSON.stringify(direct)));
    const rel = await engine.call('stats.reliability', { dataset_id: datasetId });
    expect(rel.k_max).toBe(4);
    expect(rel.points.map((p) => p.k)).toEqual([1, 2, 3, 4]);
    expect(rel.points[3].pass_at_k).toBeCloseTo(passAt(rows, { k: 4 }).pass_at_k as number, 12);
    expect(rel.points[0].pass_pow_k).toBeCloseTo(passAt(rows).pass_at_1 as number, 12);
  });

  it('cancels a running job and keeps serving', async () => {
    const running = engine.call('stats.passAt', { dataset_id: datasetId, job_id: 'job-to-cancel' });
    const cancelled = await engine.call('stats.cancel', { job_id: 'job-to-cancel' });
    expect(cancelled).toEqual({ cancelled: true });
    const error = await rejection(running);
    expect(error.code).toBe('cancelled');
    expect(await engine.call('stats.cancel', { job_id: 'job-to-cancel' })).toEqual({ cancelled: false });
    const again = await engine.call('stats.passAt', { dataset_id: datasetId });
    expect(again.report.n_groups).toBe(30);
    expect(again.per_task).toBeUndefined();
  });

  it('loads a program judge inside the worker for judge_trust, and equals the direct call', async () => {
    const judgeFile = path.join(dir, 'long-answer.mjs');
    fs.writeFileSync(judgeFile, "export default (row) => (String(row.final_text).length > 12 ? 1 : 0);\n");
    const out = await engine.call('stats.judgeTrust', { dataset_id: datasetId, judge: judgeFile, probes: 'all', sample: 20 });
    const judge = await loadJudge(judgeFile, {});
    const direct = await judgeTrust(loadRows(engine.ctx.db, datasetId), { judge: judgeFunction(judge), probes: 'all', sample: 20, judge_name: judge.name });
    expect(out.report).toEqual(JSON.parse(JSON.stringify(direct)));
    expect((out.report.perturbation as { n: number }).n).toBe(20);
  });

  it('cancels a judge_trust job that is busy in its worker', async () => {
    const slowJudge = path.join(dir, 'slow.mjs');
    fs.writeFileSync(slowJudge, 'export default async () => { await new Promise((r) => setTimeout(r, 250)); return 1; };\n');
    const running = new Promise<void>((resolve) => {
      const stop = engine.on('stats.job', (event) => event.job_id === 'slow-job' && event.state === 'running' && (stop(), resolve()));
    });
    const job = engine.call('stats.judgeTrust', { dataset_id: datasetId, judge: slowJudge, concurrency: 1, job_id: 'slow-job' });
    await running;
    await new Promise((resolve) => setTimeout(resolve, 400));
    const t0 = Date.now();
    expect(await engine.call('stats.cancel', { job_id: 'slow-job' })).toEqual({ cancelled: true });
    expect((await rejection(job)).code).toBe('cancelled');
    expect(Date.now() - t0).toBeLessThan(2000);
    expect((await engine.call('stats.curriculum', { dataset_id: datasetId })).report.n_tasks).toBe(30);
  });

  it('never hands a job to a worker started ahead that stopped before a pool took it', async () => {
    const dead = path.join(dir, 'stops-at-once.mjs');
    fs.writeFileSync(dead, 'process.exit(0);\n');
    prestartStatsWorker([], dead);
    await new Promise((resolve) => setTimeout(resolve, 500)); // it has stopped by now
    const pool = new StatsPool({ dbPath: null });
    try {
      const rows = loadRows(engine.ctx.db, datasetId);
      const out = await pool.run({ kind: 'pass_at', sources: { rows: { rows } }, params: { k: 1, min_k: 1 } }).result;
      expect(out.report.pass_at_1).toBe(passAt(rows, { k: 1, min_k: 1 }).pass_at_1);
    } finally {
      await pool.close();
    }
  });

  it('compares two large datasets, the second folded by the worker\'s spare helper, job after job (the spare is replaced)', async () => {
    const names = ['big-before', 'big-after'];
    const ids: string[] = [];
    for (const [i, name] of names.entries()) {
      const lines: string[] = [];
      for (let t = 0; lines.length < 21_000; t++) {
        for (let r = 0; r < 3; r++) lines.push(JSON.stringify({ scenario_id: `t${t}`, rollout_index: r, prompt: `Question ${t}?`, final_text: `Reply ${r}`, steps: [], reward: (t * 5 + r + i) % 7 < 3 + i ? 1 : 0, category: `c${t % 4}` }));
      }
      fs.writeFileSync(path.join(dir, `${name}.jsonl`), lines.join('\n') + '\n');
      ids.push((await importFile(engine, path.join(dir, `${name}.jsonl`), { name, skipInvalid: false })).dataset_id as string);
    }
    // Folded from their rows, not read from the folds their import kept (test/integration/kept-folds.test.ts): this
    // pool keeps none of its own.
    engine.ctx.db.prepare('DELETE FROM kept_folds').run();
    const pool = new StatsPool({ dbPath: engine.ctx.dbPath });
    try {
      const request = { kind: 'compare_report' as const, sources: { before: { dataset_id: ids[0] }, after: { dataset_id: ids[1] } }, params: { target: 'pass_at_1' } };
      const first = await pool.run(request).result;
      const second = await pool.run(request).result; // after the first took the spare, with the one started after it
      expect(second).toEqual(first);
      const [before, after] = ids.map((id) => loadRows(engine.ctx.db, id));
      expect(first.report).toEqual(JSON.parse(JSON.stringify(deltaReport(before, after, { target: 'pass_at_1' }))));
      expect((first as unknown as { task_table: { n_paired: number } }).task_table.n_paired).toBe(7000);
    } finally {
      await pool.close();
    }
  });

  it('runs jobs side by side in a pool of two, cancels a queued one, and fails a bad one alone', async () => {
    const pool = new StatsPool({ dbPath: null, size: 2 });
    try {
      const rows = loadRows(engine.ctx.db, datasetId);
      const jobs = [1, 2, 3].map((k) => pool.run({ kind: 'pass_at', sources: { rows: { rows } }, params: { k, min_k: 1 } }));
      const queued = pool.run({ kind: 'curriculum', sources: { rows: { rows } }, params: {} });
      const bad = rejection(pool.run({ kind: 'compare_runs', sources: { a: { rows }, b: { rows } }, params: { level: 2 } }).result);
      expect(pool.cancel(queued.jobId)).toBe(true);
      expect((await rejection(queued.result)).code).toBe('cancelled');
      const outputs = await Promise.all(jobs.map((job) => job.result));
      expect(outputs.map((out) => out.report.k)).toEqual([1, 2, 3]);
      expect(outputs[1].report.pass_at_k).toBe(passAt(rows, { k: 2, min_k: 1 }).pass_at_k);
      expect((await bad).code).toBe('bad_input');
      expect(pool.pending).toBe(0);
    } finally {
      await pool.close();
    }
  });

  it('turns bad input into typed errors', async () => {
    const outOfRange = await rejection(engine.call('stats.compare', { a: datasetId, b: otherId, level: 1.5 }));
    expect(outOfRange.code).toBe('bad_input');
    expect(outOfRange.message).toMatch(/level/);
    const schema = await rejection(engine.call('stats.passAt', { dataset_id: datasetId, k: 0 }));
    expect(schema.code).toBe('bad_input');
    const missing = await rejection(engine.call('stats.passAt', { dataset_id: 'ds_does_not_exist' }));
    expect(missing.code).toBe('not_found');
    const effect = await rejection(engine.call('stats.holdoutSize', { effect: 0.05, task_std: -1 }));
    expect(effect.code).toBe('bad_input');
  });
  it('refuses parameters outside their ranges, naming the parameter', async () => {
    const base = await rejection(engine.call('stats.holdoutSize', { effect: 0.05, base: 1.5 }));
    expect(base.code).toBe('bad_input');
    expect(base.message).toMatch(/base: must be between 0 and 1/);
    expect((await rejection(engine.call('stats.holdoutSize', { effect: 1 }))).message).toMatch(/effect: must be strictly between 0 and 1/);
    expect((await rejection(engine.call('stats.curriculum', { dataset_id: datasetId, tiers: 0 }))).message).toMatch(/tiers: must be at least 1/);
    // The SDK takes base = 0 (a task set that never passes).
    expect((await engine.call('stats.holdoutSize', { effect: 0.1, base: 0 })).report.n_tasks).toBeGreaterThan(0);
  });
});

describe('a {path} source: the worker reads the JSONL file itself', () => {
  it('gives the same report for the file as for the dataset imported from it', async () => {
    const file = path.join(dir, 'a.jsonl');
    const byFile = await engine.call('stats.passAt', { dataset_id: { path: file }, k: 2, min_k: 2, per_task: true });
    const byId = await engine.call('stats.passAt', { dataset_id: datasetId, k: 2, min_k: 2, per_task: true });
    expect(byFile.report).toEqual(byId.report);
    expect(byFile.per_task).toEqual(byId.per_task);
    const cmp = await engine.call('stats.compare', { a: { path: file }, b: otherId, n_boot: 200 });
    expect(cmp.report).toEqual((await engine.call('stats.compare', { a: datasetId, b: otherId, n_boot: 200 })).report);
  });

  it('reads UTF-8 text (and a byte order mark) as an import does', async () => {
    const file = path.join(dir, 'accents.jsonl');
    const lines = Array.from({ length: 12 }, (_, i) => JSON.stringify({ scenario_id: `tâche ${i % 3}`, rollout_index: i, prompt: `Où est ma commande ☕ ${i % 3} ?`, final_text: 'Réponse', steps: [], reward: i % 2 }));
    fs.writeFileSync(file, '\ufeff' + lines.join('\n') + '\n');
    const imported = await importFile(engine, file, { name: 'accents', skipInvalid: false });
    const byFile = await engine.call('stats.curriculum', { dataset_id: { path: file } });
    const byId = await engine.call('stats.curriculum', { dataset_id: imported.dataset_id as string });
    expect(byFile.report).toEqual(byId.report);
    expect(byFile.report.trainable.map((t) => t.prompt)).toContain('Où est ma commande ☕ 0 ?');
  });

  it('names file:line for a line that is not JSON, and not_found for a missing file', async () => {
    const bad = path.join(dir, 'bad.jsonl');
    fs.writeFileSync(bad, fs.readFileSync(path.join(dir, 'a.jsonl'), 'utf8').split('\n').slice(0, 3).join('\n') + '\n{"scenario_id": "x", oops}\n');
    const error = await rejection(engine.call('stats.passAt', { dataset_id: { path: bad } }));
    expect(error.code).toBe('bad_input');
    expect(error.message).toContain(`${bad}:4: not valid JSON`);
    expect((await rejection(engine.call('stats.passAt', { dataset_id: { path: path.join(dir, 'none.jsonl') } }))).code).toBe('not_found');
    expect((await rejection(engine.call('stats.passAt', { dataset_id: { path: 'relative.jsonl' } }))).message).toMatch(/absolute path/);
  });
});

describe('output schemas', () => {
  it('every statistic of the registry returns, on real data, what its declared output schema allows', async () => {
    const judgeFile = path.join(dir, 'short-answer.mjs');
    fs.writeFileSync(judgeFile, "export default (row) => (String(row.final_text).length > 10 ? 1 : 0);\n");
    const inputs: Record<string, Record<string, unknown>> = {
      'stats.passAt': { dataset_id: datasetId, per_task: true },
      'stats.reliability': { dataset_id: datasetId },
      'stats.curriculum': { dataset_id: datasetId, list_limit: 5 },
      'stats.judgeTrust': { dataset_id: datasetId, judge: judgeFile, probes: 'all', sample: 10 },
      'stats.compare': { a: datasetId, b: otherId, n_boot: 200 },
      'stats.delta': { before: datasetId, after: otherId, n_boot: 200 },
      'stats.compareReport': { before: datasetId, after: otherId, n_boot: 200 },
      'stats.evalVariance': { dataset_ids: [datasetId, otherId] },
      'stats.holdoutSize': { effect: 0.1, before: datasetId, after: otherId },
      'stats.decontaminate': { dataset_id: datasetId, against: [otherId] },
      'stats.hackScan': { dataset_id: datasetId, endorsed: ['reply_length'], n_perm: 20 },
    };
    expect(Object.keys(inputs).sort()).toEqual(statistics.map((stat) => stat.method).sort());
    for (const stat of statistics) {
      const out = await engine.callRaw(stat.method, inputs[stat.method]);
      const checked = statisticSchemas(stat).output.safeParse(out);
      expect(checked.success, `${stat.method}: ${checked.success ? '' : checked.error.message}`).toBe(true);
    }
  });

  it('an engine with checkOutputs refuses a handler result its schema does not allow', async () => {
    const table = statsHandlers as unknown as Record<string, unknown>;
    const original = table['stats.cancel'];
    table['stats.cancel'] = () => ({ cancelled: 'yes' });
    try {
      const error = await rejection(engine.call('stats.cancel', { job_id: 'x' }));
      expect(error.code).toBe('internal');
      expect(error.message).toMatch(/stats.cancel returned a shape its output schema does not allow: cancelled/);
    } finally {
      table['stats.cancel'] = original;
    }
  });
});

