// The rollout loop against a real local OpenAI-compatible server: tool calls answered by the world, faults
// recorded, tool markup re-rolled and counted, a refused key stopping the run.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../fixtures/fake-openai-server.mjs';
import { createEngine, type Engine } from '../../main/engine/engine';
import { readDatasetRows as loadRows } from '../../main/rows/index';

const tasksFile = path.resolve(__dirname, '../fixtures/tasks/support.jsonl');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wd-openai-run-'));
let server: FakeOpenAiServer;
let engine: Engine;
let markupServed = 0;

beforeAll(async () => {
  server = await startFakeOpenAiServer({
    respond: (body) => {
      const first = String(body.messages.find((m: { role: string }) => m.role === 'user')?.content ?? '');
      // The first answer to the "export data" ask leaks a tool schema once (tool markup, §3.5): it must be re-rolled.
      if (first.includes('export data') && markupServed === 0 && body.messages.some((m: { role: string }) => m.role === 'tool')) {
        markupServed++;
        return 'Here you go: {"name": "search_docs", "description": "Search the help center", "parameters": {"type": "object"}}';
      }
      return undefined;
    },
  });
  engine = createEngine({ dbPath: path.join(dir, 'openai.sqlite') });
});
afterAll(async () => {
  await engine.close();
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

type Row = Record<string, unknown>;

describe('a run against an OpenAI-compatible server', () => {
  it('executes the tool calls against the world, records faults, re-rolls tool markup', async () => {
    const started = await engine.call('runs.start', { tasks_path: tasksFile, agent: { kind: 'openai', model: 'fake-model', base_url: server.baseUrl }, k: 2, concurrency: 8 });
    await engine.call('runs.wait', { id: started.run_id });
    const run = await engine.call('runs.get', { id: started.run_id });
    expect(run.error).toBeNull();
    expect(run).toMatchObject({ status: 'done', rows: 16, expected_rows: 16 });
    const rows = loadRows(engine.ctx.db, started.run_id);
    const paris = rows.find((r) => r.scenario_id === 'weather-paris')!;
    expect(paris.model_version).toBe('fake-model');
    expect(paris.sampling).toMatchObject({ model: 'fake-model' });
    const step = (paris.steps as Row[])[0];
    expect(step.tool).toBe('get_weather');
    expect(step.result).toBeTruthy();
    const timeout = rows.find((r) => r.scenario_id === 'refund-timeout')!;
    expect(timeout.faults).toEqual({ refund_order: { mode: 'timeout' } });
    expect((timeout.steps as Row[])[0].result).toMatchObject({ status: 'timeout' });
    expect(markupServed).toBe(1);
    expect(run.rollouts_lost.rerolled_by).toEqual({ tool_markup: 1 });
    expect(rows.every((r) => !String(r.final_text).includes('"parameters"'))).toBe(true);
  });

  it('stops at once, as failed, when the server refuses the key', async () => {
    const refusing = await startFakeOpenAiServer({ faultFor: () => ({ kind: 'status', status: 401, body: { error: { message: 'bad key' } } }) });
    try {
      const started = await engine.call('runs.start', { tasks_path: tasksFile, agent: { kind: 'openai', model: 'm', base_url: refusing.baseUrl }, k: 3 });
      await engine.call('runs.wait', { id: started.run_id });
      const run = await engine.call('runs.get', { id: started.run_id });
      expect(run.status).toBe('failed');
      expect(run.error).toMatch(/refused/);
      expect(run.rows).toBe(0);
      expect(refusing.stats.completions + (refusing.stats.byStatus[401] ?? 0)).toBeLessThan(30);
    } finally {
      await refusing.close();
    }
  });
});
