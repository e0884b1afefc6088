// The seeded agent and the run engine in process: deterministic per seed, mixed pass/fail, row-v1 shape.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEngine } from '../../helpers/build-engine';
import { createEngine, type Engine } from '../../../main/engine/engine';
import { argumentsFromPrompt, inventArguments } from '../../../main/agents/prompt-arguments';
import { chooseMisbehavior } from '../../../main/agents/seeded-agent';
import { readDatasetRows as loadRows } from '../../../main/rows/index';

const tasksFile = path.resolve(__dirname, '../../fixtures/tasks/support.jsonl');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wd-seeded-'));
const engines: Engine[] = [];
// runs.get computes pass@1 in the statistics worker pool, which runs the built worker.
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

type Row = Record<string, unknown>;

/** The test's own judge: the reply names the task's reference. */
const passes = (row: Row) => {
  const reference = String((row.privileged as Row | undefined)?.reference ?? '').toLowerCase();
  return reference !== '' && String(row.final_text).toLowerCase().includes(reference) ? 1 : 0;
};

async function seededRun(e: Engine, seed: number, extra: Record<string, unknown> = {}) {
  const started = await e.call('runs.start', { tasks_path: tasksFile, agent: { kind: 'seeded' }, k: 4, seed, concurrency: 4, ...extra });
  await e.call('runs.wait', { id: started.run_id });
  return { id: started.run_id, expected: started.expected_rows, rows: loadRows(e.ctx.db, started.run_id) };
}

describe('seeded misbehaviour draw', () => {
  it('never misbehaves at rate 0, always at rate 1, about 30% at 0.3', () => {
    const draws = Array.from({ length: 3000 }, (_, i) => chooseMisbehavior(0.3, 0, `s${i % 50}`, i, 0));
    const share = draws.filter((d) => d !== null).length / draws.length;
    expect(share).toBeGreaterThan(0.25);
    expect(share).toBeLessThan(0.35);
    expect(new Set(draws.filter(Boolean))).toEqual(new Set(['skip_tool', 'invented_argument', 'claimed_success', 'refusal', 'empty_reply']));
    expect(Array.from({ length: 200 }, (_, i) => chooseMisbehavior(0, 1, 'x', i, 0)).every((d) => d === null)).toBe(true);
    expect(Array.from({ length: 200 }, (_, i) => chooseMisbehavior(1, 1, 'x', i, 0)).every((d) => d !== null)).toBe(true);
    expect(chooseMisbehavior(0.5, 3, 'a', 1, 0)).toBe(chooseMisbehavior(0.5, 3, 'a', 1, 0));
  });
});

describe('arguments from the prompt', () => {
  const params = (properties: Record<string, unknown>, required: string[] = []) => ({ type: 'object', properties, required });
  it('reads ids, labelled values, numbers, quoted text and enums', () => {
    expect(argumentsFromPrompt('Where is my order ORD-1042?', params({ order_id: { type: 'string' } }))).toEqual({ order_id: 'ORD-1042' });
    expect(argumentsFromPrompt('Refund order ORD-3310, amount 25 dollars.', params({ order_id: { type: 'string' }, amount: { type: 'number' } }))).toEqual({
      order_id: 'ORD-3310',
      amount: 25,
    });
    expect(argumentsFromPrompt('Refund ORD-4400 please', params({ order_id: { type: 'string' }, amount: { type: 'number' } }))).toEqual({ order_id: 'ORD-4400' });
    expect(argumentsFromPrompt('Search the docs for "reset password".', params({ query: { type: 'string' } }))).toEqual({ query: 'reset password' });
    expect(argumentsFromPrompt('Weather for city Oslo?', params({ city: { type: 'string' } }))).toEqual({ city: 'Oslo' });
    expect(argumentsFromPrompt('Ship it express please', params({ speed: { enum: ['standard', 'express'] } }))).toEqual({ speed: 'express' });
  });
  it('invents a wrong value for one argument', () => {
    const invented = inventArguments({ order_id: 'ORD-1' }, params({ order_id: { type: 'string' } }), 5);
    expect(invented.order_id).not.toBe('ORD-1');
  });
});

describe('a seeded run', () => {
  it('fills every slot once, in the row-v1 shape, with faults recorded', async () => {
    const run = await seededRun(engine(), 0);
    expect(run.rows.length).toBe(run.expected);
    expect(run.expected).toBe(32);
    const keys = new Set(run.rows.map((r) => `${String(r.scenario_id)}#${String(r.rollout_index)}`));
    expect(keys.size).toBe(32);
    for (const row of run.rows) {
      expect(row.schema_version).toBe('1');
      expect(typeof row.prompt).toBe('string');
      expect(Array.isArray(row.steps)).toBe(true);
      expect(typeof row.final_text).toBe('string');
      expect(Array.isArray(row.messages)).toBe(true);
      expect(row.model_version).toBe('seeded');
      expect(row.policy_version).toMatch(/^seeded@[0-9a-f]{16}$/);
      expect(row.lineage).toMatchObject({ system_prompt_sha: expect.stringMatching(/^[0-9a-f]{16}$/), system_prompt_chars: expect.any(Number) });
      expect((row.lineage as Row).eval_run).toBeUndefined();
      expect(['stop', 'length', 'tool', 'error']).toContain(row.finish_reason);
    }
    const faulted = run.rows.find((r) => r.scenario_id === 'refund-timeout' && Array.isArray(r.steps) && r.steps.length > 0)!;
    expect(faulted.faults).toEqual({ refund_order: { mode: 'timeout' } });
    expect((faulted.steps as Row[])[0].result).toMatchObject({ status: 'timeout' });
  });

  it('gives the same rows and rewards for the same seed, other ones for another seed, and mixed pass/fail', async () => {
    const a = await seededRun(engine(), 11);
    const b = await seededRun(engine(), 11);
    const c = await seededRun(engine(), 12);
    const rewards = (rows: Row[]) => rows.map(passes);
    expect(rewards(a.rows)).toEqual(rewards(b.rows));
    expect(a.rows.map((r) => r.final_text)).toEqual(b.rows.map((r) => r.final_text));
    expect(a.rows.map((r) => r.final_text)).not.toEqual(c.rows.map((r) => r.final_text));
    const passed = rewards(a.rows).filter((r) => r === 1).length;
    expect(passed).toBeGreaterThan(0);
    expect(passed).toBeLessThan(a.rows.length);
    expect(a.rows.some((r) => Array.isArray(r.seeded) && r.seeded.length > 0)).toBe(true);
    expect(a.rows.some((r) => Array.isArray(r.seeded) && r.seeded.length === 0)).toBe(true);
  });

  it('stamps eval_run when runs > 1 and never repeats a (scenario_id, rollout_index, eval_run)', async () => {
    const run = await seededRun(engine(), 3, { runs: 3, k: 2 });
    expect(run.rows.length).toBe(8 * 2 * 3);
    const keys = new Set(run.rows.map((r) => `${String(r.scenario_id)}#${String(r.rollout_index)}#${String((r.lineage as Row).eval_run)}`));
    expect(keys.size).toBe(48);
    expect(run.rows.filter((r) => (r.lineage as Row).eval_run === 2).every((r) => (r.lineage as Row).replayed_from_run === 0)).toBe(true);
  });

  it('re-rolls empty replies and counts them; cancel keeps finished rows; resume fills exactly the rest', async () => {
    const e = engine();
    // Large enough that the cancel lands long before the end, even at >10k seeded rollouts per second.
    const k = 1500;
    const total = 8 * k;
    const started = await e.call('runs.start', { tasks_path: tasksFile, agent: { kind: 'seeded' }, k, seed: 5, concurrency: 8 });
    await new Promise<void>((resolve) => {
      const off = e.on('run.progress', (p) => {
        if (p.run_id === started.run_id && p.done >= 200) {
          off();
          resolve();
        }
      });
    });
    expect((await e.call('runs.cancel', { id: started.run_id })).cancelled).toBe(true);
    await e.call('runs.wait', { id: started.run_id });
    const cancelled = await e.call('runs.get', { id: started.run_id });
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled.rows).toBeLessThan(total);
    const resumed = await e.call('runs.resume', { id: started.run_id });
    expect(resumed.remaining).toBe(total - cancelled.rows);
    await e.call('runs.wait', { id: started.run_id });
    const done = await e.call('runs.get', { id: started.run_id });
    expect(done.status).toBe('done');
    expect(done.rows).toBe(total);
    expect(done.rollouts_lost.rerolled).toBeGreaterThan(0);
    expect(Object.keys(done.rollouts_lost.rerolled_by)).toEqual(['empty_reply']);
    const dupes = e.ctx.db
      .prepare('SELECT COUNT(*) AS n FROM (SELECT scenario_id, rollout_index, eval_run FROM rows WHERE dataset_id = ? GROUP BY 1, 2, 3 HAVING COUNT(*) > 1)')
      .get(started.run_id) as { n: number };
    expect(dupes.n).toBe(0);
    const list = await e.call('runs.list', {});
    expect(list[0]).toMatchObject({ id: started.run_id, status: 'done', rows: total, expected_rows: total });
  });

  it('takes the task set as text, and a judge that throws leaves reward null with its status', async () => {
    const e = engine();
    const judgeFile = path.join(dir, 'flaky-judge.mjs');
    fs.writeFileSync(judgeFile, `export default (row) => { if (row.rollout_index === 1) throw new Error('judge broke'); return row.seeded.length === 0 ? 1 : 0; };\n`);
    const text = fs.readFileSync(tasksFile, 'utf8');
    const started = await e.call('runs.start', { tasks_text: text, agent: { kind: 'seeded' }, k: 2, seed: 4, judge: { kind: 'module', path: judgeFile } });
    await e.call('runs.wait', { id: started.run_id });
    const run = await e.call('runs.get', { id: started.run_id });
    expect(run.config.tasks_path).toBeNull();
    expect(run).toMatchObject({ status: 'done', rows: 16 });
    const rows = loadRows(e.ctx.db, started.run_id);
    for (const row of rows.filter((r) => r.rollout_index === 1)) expect(row).toMatchObject({ reward: null, judge_status: 'error' });
    for (const row of rows.filter((r) => r.rollout_index === 0)) expect([0, 1]).toContain(row.reward);
    expect(run.graded_rows).toBe(8);
  });

  it('refuses bad agent settings before creating anything', async () => {
    const e = engine();
    await expect(e.callRaw('runs.start', { tasks_path: tasksFile, agent: 'gpt4' })).rejects.toMatchObject({ code: 'bad_input' });
    await expect(e.callRaw('runs.start', { tasks_path: tasksFile, agent: { kind: 'openai', model: 'm' } })).rejects.toThrow(/base_url/);
    await expect(e.callRaw('runs.start', { tasks_path: tasksFile, agent: { kind: 'seeded', misbehave_rate: 2 } })).rejects.toThrow(/misbehave_rate/);
    expect(await e.call('runs.list', {})).toEqual([]);
  });
});

describe('the seeded agent and plain-string tool results', () => {
  it('reports a world result that is a plain string ("ok") instead of failing the rollout', async () => {
    const e = engine();
    const tool = { type: 'function', function: { name: 'ping', parameters: { type: 'object', properties: {} } } };
    const tasks = [
      { scenario_id: 'plain', prompt: 'Please ping the server.', tools: [tool], world: { ping: [{ result: 'ok' }] } },
      { scenario_id: 'blank', prompt: 'Please ping the server again.', tools: [tool], world: { ping: [{ result: '  ' }] } },
      { scenario_id: 'jsonish', prompt: 'Please ping once more.', tools: [tool], world: { ping: [{ result: 'not {json' }] } },
    ];
    const file = path.join(dir, 'string-results.jsonl');
    fs.writeFileSync(file, tasks.map((task) => JSON.stringify(task)).join('\n') + '\n');
    const started = await e.call('runs.start', { tasks_path: file, agent: { kind: 'seeded', misbehave_rate: 0 }, k: 1 });
    await e.call('runs.wait', { id: started.run_id });
    const rows = loadRows(e.ctx.db, started.run_id) as Row[];
    const byId = Object.fromEntries(rows.map((row) => [row.scenario_id, row]));
    expect(byId.plain.final_text).toBe('ping returned: ok.');
    expect((byId.plain.steps as Row[])[0]).toMatchObject({ tool: 'ping', result: 'ok' });
    expect(byId.blank.final_text).toMatch(/^I called ping but it returned an empty result/);
    expect(byId.jsonish.final_text).toBe('ping returned: not {json.');
    for (const row of rows) expect(row.final_text).not.toMatch(/agent error/);
  });
});
