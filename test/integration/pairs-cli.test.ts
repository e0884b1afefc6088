// `while-desk pairs A B --judge openai:MODEL@URL` as a separate process against the fake OpenAI-compatible server:
// every pair is asked both ways round, a judge that prefers a position is counted as a flip (and the pair a tie),
// and an unknown dataset or two datasets with no task in common is a clear error.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '../fixtures/fake-openai-server.mjs';
import { buildEngine, cli } from './sim-run-helpers';

beforeAll(buildEngine, 120_000);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pairs-cli-'));
const dbPath = path.join(dir, 'desk.db');
let server: FakeOpenAiServer;
let idA = '';
/** Each question as the judge saw it: the task and which dataset's reply stood as A. */
const asked: Array<{ task: string; first: string }> = [];

const rows = (side: string, tasks: string[]) => tasks.map((t) => JSON.stringify({ schema_version: '1', scenario_id: t, rollout_index: 0, prompt: `Where is order ${t}?`, steps: [], final_text: `${side} says ${t} shipped.` })).join('\n') + '\n';

beforeAll(async () => {
  server = await startFakeOpenAiServer({
    respond: (body) => {
      const user = JSON.parse(String(body.messages[1].content));
      const first = String(user.A.final_text).slice(0, 1);
      const task = /order (\w+)/.exec(user.request)?.[1] ?? '?';
      asked.push({ task, first });
      // s0, s1: the reply from A wins in both orders; s2: whichever reply stands first wins (a flip); s3: a tie
      if (task === 's2') return JSON.stringify({ winner: 'A', reason: 'the first one' });
      if (task === 's3') return 'both fine. winner: tie';
      return JSON.stringify({ winner: first === 'A' ? 'A' : 'B', reason: 'dataset A reply' });
    },
  });
  fs.writeFileSync(path.join(dir, 'a.jsonl'), rows('A', ['s0', 's1', 's2', 's3', 'only-a']));
  fs.writeFileSync(path.join(dir, 'b.jsonl'), rows('B', ['s3', 's2', 's1', 's0', 'only-b']));
  fs.writeFileSync(path.join(dir, 'other.jsonl'), rows('B', ['x0', 'x1']));
  const imported = await cli(['import', path.join(dir, 'a.jsonl'), '--db', dbPath, '--json']);
  idA = JSON.parse(imported.stdout).dataset_id;
}, 60_000);

afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('while-desk pairs', () => {
  it('asks each shared task both ways round, counts winners, and counts a position flip as a tie', async () => {
    const res = await cli(['pairs', idA, path.join(dir, 'b.jsonl'), '--judge', `openai:pj@${server.baseUrl}`, '--db', dbPath, '--json']);
    expect(res.stderr).toMatch(/^(warning: .*\n)*$/);
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out).toMatchObject({ n: 4, n_judged: 4, failed: 0, swap: true, position_flip_rate: 0.25, tie_rate: 0.5, agrees_with_scores: 0.5, prefers_rejected: 0 });
    expect(out).toMatchObject({ counts: { A: 2, B: 0, tie: 2, failed: 0 }, asked: 8, tasks_a: 5, tasks_b: 5 });
    expect(out.judge).toMatch(/^pairwise:pj@[0-9a-f]{12}$/);
    const byTask = Object.fromEntries(out.pairs.map((p: { task: string }) => [p.task, p]));
    expect(byTask.s2).toMatchObject({ winner: 'tie', position_consistent: false });
    expect(byTask.s3).toMatchObject({ winner: 'tie', position_consistent: true });
    expect(byTask.s0).toMatchObject({ winner: 'A', position_consistent: true });
    // both orders asked for every pair: once with A's reply first, once with B's
    for (const task of ['s0', 's1', 's2', 's3']) expect(asked.filter((q) => q.task === task).map((q) => q.first).sort()).toEqual(['A', 'B']);
    expect(asked.some((q) => q.task.startsWith('only'))).toBe(false);
    expect(out.warnings.join(' ')).toMatch(/position bias/);
    const text = await cli(['pairs', idA, path.join(dir, 'b.jsonl'), '--judge', `openai:pj@${server.baseUrl}`, '--db', dbPath]);
    expect(text.stdout).toMatch(/A wins 2, B wins 0, tie 2/);
    expect(text.stdout).toMatch(/position_flip_rate 0\.25/);
    expect(text.stdout).not.toContain('#/label/pairs/'); // B is a file: no stored pairs to label
  }, 60_000);

  it('the seeded judge runs offline and says it is a dry run', async () => {
    const res = await cli(['pairs', path.join(dir, 'a.jsonl'), path.join(dir, 'b.jsonl'), '--judge', 'seeded', '--db', dbPath, '--json']);
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/dry run/);
    const out = JSON.parse(res.stdout);
    expect(out.n).toBe(4);
    expect(out.counts.A + out.counts.B + out.counts.tie).toBe(4);
  }, 60_000);

  it('a judge that hangs fails each question within the deadline, kept as the pair\'s reason', async () => {
    const hanging = await startFakeOpenAiServer({ faultFor: () => ({ kind: 'hang' }) });
    try {
      const started = Date.now();
      const res = await cli(['pairs', idA, path.join(dir, 'b.jsonl'), '--judge', `openai:pj@${hanging.baseUrl}`, '--judge-timeout', '1', '--db', dbPath, '--json']);
      expect(res.code).toBe(0);
      expect(Date.now() - started).toBeLessThan(20_000);
      const out = JSON.parse(res.stdout);
      expect(out).toMatchObject({ n: 4, n_judged: 0, failed: 4, position_flip_rate: null, counts: { failed: 4 } });
      expect(out.pairs[0].reasons[0]).toMatch(/^timeout/);
    } finally {
      await hanging.close();
    }
  }, 60_000);

  it('an unknown dataset, or two with no task in common, is a clear error', async () => {
    const unknown = await cli(['pairs', idA, 'no-such-id', '--judge', 'seeded', '--db', dbPath]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/B: no dataset or run with id "no-such-id"/);
    const disjoint = await cli(['pairs', idA, path.join(dir, 'other.jsonl'), '--judge', 'seeded', '--db', dbPath]);
    expect(disjoint.code).not.toBe(0);
    expect(disjoint.stderr).toMatch(/A and B share no task \(A has 5 tasks, B 2/);
    const noJudge = await cli(['pairs', idA, idA, '--db', dbPath]);
    expect(noJudge.code).not.toBe(0);
    expect(noJudge.stderr).toMatch(/--judge SPEC is required/);
  }, 60_000);
});
