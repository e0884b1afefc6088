// Hostile module judges inside a run, through the engine's typed API with the seeded agent: every row still lands,
// the judge's victims with reward null, a status and the reason in judge_meta; the run completes.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../main/engine/engine';
import { buildEngine, runRows, runToEnd, supportTasks } from './sim-run-helpers';

beforeAll(buildEngine, 120_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'judge-hostile-run-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

// One judge, one misdeed per task; the other tasks pass. Tasks that do nothing wrong sit between the misdeeds,
// so the judge is never "failing on every row" and given up on.
const HOSTILE = `
setInterval(() => {}, 5); // a leftover timer from load
export default async function hostile(row) {
  setInterval(() => {}, 1); // and one per row
  switch (row.scenario_id) {
    case 'order-status-1': process.exit(9);
    case 'refund-1': { const hoard = []; for (;;) hoard.push(new Array(1e7).fill(1.5)); }
    case 'weather-paris': Promise.reject(new Error('left behind')); return 1;
    case 'weather-error': Object.prototype.reward = 1; return {};
    case 'docs-empty': for (;;) {}
    default: return { reward: 1, reason: 'fine' };
  }
}
`;

describe('hostile judges in a run', () => {
  it('each misdeed costs its own row a reward and nothing else; the run is done', async () => {
    const judge = path.join(dir, 'hostile.mjs');
    fs.writeFileSync(judge, HOSTILE);
    const dbPath = path.join(dir, 'run.db');
    const engine = createEngine({ dbPath });
    const started = Date.now();
    let runId: string;
    try {
      const run = await runToEnd(engine, { tasks_path: supportTasks, agent: { kind: 'seeded', misbehave_rate: 0 }, k: 1, judge: { kind: 'module', path: judge, timeout_s: 2 } });
      runId = run.runId;
      expect(run.status).toBe('done');
      const detail = await engine.call('runs.get', { id: runId });
      expect(detail).toMatchObject({ status: 'done', rows: 8 });
    } finally {
      await engine.close();
    }
    // the per-row deadline (2 s here) bounds the endless loop; the rest is quick
    expect(Date.now() - started).toBeLessThan(30_000);
    const rows = Object.fromEntries(runRows(dbPath, runId).map(({ row }) => [row.scenario_id as string, row]));
    expect(rows['order-status-1']).toMatchObject({ reward: null, judge_status: 'crashed', judge_meta: { error: expect.stringContaining('process.exit(9)') } });
    // 512 MiB fill up in about a second on an idle machine; on a loaded one the 2 s deadline may come first
    expect(rows['refund-1'].reward).toBeNull();
    if (rows['refund-1'].judge_status === 'crashed') expect(rows['refund-1'].judge_meta).toMatchObject({ error: expect.stringMatching(/out of memory \(heap limit 512 MiB\)/) });
    else expect(rows['refund-1']).toMatchObject({ judge_status: 'timeout', judge_meta: { timeout_s: 2 } });
    expect(rows['weather-paris']).toMatchObject({ reward: null, judge_status: 'error', judge_meta: { error: 'unhandled rejection: Error: left behind' } });
    expect(rows['weather-error']).toMatchObject({ reward: null, judge_status: 'invalid_result', judge_meta: { prototype_polluted: ['reward'] } });
    expect(rows['docs-empty']).toMatchObject({ reward: null, judge_status: 'timeout', judge_meta: { timeout_s: 2 } });
    for (const id of ['order-status-2', 'refund-timeout', 'docs-search']) {
      expect(rows[id]).toMatchObject({ reward: 1, judge_status: 'ok', judge_name: 'hostile', reason: 'fine' });
      expect(rows[id].judge_meta).toBeUndefined();
    }
  }, 60_000);

  it('a judge that cannot load is refused by runs.start before the run exists', async () => {
    const dbPath = path.join(dir, 'refused.db');
    const engine = createEngine({ dbPath });
    try {
      const bad = path.join(dir, 'bad-syntax.mjs');
      fs.writeFileSync(bad, 'export default (row) => {\n  return row.;\n};\n');
      await expect(engine.call('runs.start', { tasks_path: supportTasks, agent: { kind: 'seeded' }, judge: { kind: 'module', path: bad } })).rejects.toThrow(/bad-syntax\.mjs:2:\d+ has a syntax error/);
      const deep = path.join(dir, 'deep.json');
      fs.writeFileSync(deep, '{"rule":' + '{"not":'.repeat(50) + '{"contains":"x"}' + '}'.repeat(51));
      await expect(engine.call('runs.start', { tasks_path: supportTasks, agent: { kind: 'seeded' }, judge: { kind: 'rules', path: deep } })).rejects.toThrow(/deep\.json: .*nest too deep/);
      expect(await engine.call('runs.list', {})).toEqual([]);
    } finally {
      await engine.close();
    }
  });

  it('a catastrophic regex in a rules judge answers at once (RE2, linear time)', async () => {
    const rules = path.join(dir, 'redos.json');
    fs.writeFileSync(rules, JSON.stringify({ name: 'redos', rule: { any: [{ regex: '^(a+)+$', field: 'prompt' }, { regex: '(x+x+)+y' }] } }));
    const tasks = path.join(dir, 'evil-tasks.jsonl');
    const base = JSON.parse(fs.readFileSync(supportTasks, 'utf8').split('\n')[0]);
    fs.writeFileSync(tasks, JSON.stringify({ ...base, scenario_id: 'evil', prompt: `${'a'.repeat(40)}!` }) + '\n');
    const engine = createEngine({ dbPath: path.join(dir, 'redos.db') });
    const started = Date.now();
    try {
      const run = await runToEnd(engine, { tasks_path: tasks, agent: { kind: 'seeded', misbehave_rate: 0 }, k: 4, judge: { kind: 'rules', path: rules } });
      expect(run.status).toBe('done');
      const rows = runRows(path.join(dir, 'redos.db'), run.runId);
      expect(rows).toHaveLength(4);
      expect(rows.every(({ row }) => row.reward === 0 && row.judge_status === 'ok')).toBe(true);
    } finally {
      await engine.close();
    }
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
