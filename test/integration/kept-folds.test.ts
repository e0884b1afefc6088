// Kept folds end to end: a run folds its rows as they land and keeps the fold when it is done; a dataset's first
// statistic folds its rows and the worker's fold is kept; the compare report then reads the two kept folds instead
// of the rows; a write moves the dataset on and its rows are folded again; a missing or damaged entry costs only
// time. Every report equals the report on the rows.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../main/engine/engine';
import { importFile } from '../../main/cli/import-file';
import { datasetVersion } from '../../main/db/changes';
import { appendRows, keepFold, keptFold, readDatasetRows, serializeFold, toStoredRow } from '../../main/rows/index';
import { deltaReport } from '../../shared/stats/delta-report';
import { foldsKeptAtWrite } from '../../shared/stats/kept-folds';
import { pairedTaskTable, toTaskColumns } from '../../shared/stats/paired-tasks';
import { perTaskRates } from '../../shared/stats/pass-at';
import { compareInput } from '../../renderer/src/pages/compare/compare-input';
import { buildEngine } from '../helpers/build-engine';
import { runToEnd, supportTasks } from './sim-run-helpers';
import { tempDir } from '../helpers/temp';

const [kept] = foldsKeptAtWrite();
let dir: string;
let engine: Engine;
const ids: string[] = [];

/** A run of `tasks` tasks x 4 as JSONL, with a line that is not a row and one row of another shape (stored rewritten). */
function runFile(name: string, tasks: number, shift: number): string {
  const lines: string[] = [];
  for (let t = 0; t < tasks; t++) {
    for (let r = 0; r < 4; r++) {
      lines.push(JSON.stringify({ scenario_id: `task_${t}`, rollout_index: r, prompt: `Task ${t}?`, final_text: `Reply ${r}`, steps: [], reward: (t * 7 + r * 3 + shift) % 5 < 2 + (t % 3) ? 1 : 0, category: `c${t % 4}`, markers: { tool_calls: (t + r) % 3 } }));
    }
    if (t === 7) lines.push('{"this is": not json');
    if (t === 9) lines.push(JSON.stringify({ question: 'What is 2+2?', answer: '4', scenario_id: 'task_9', reward: 1 }));
  }
  const file = path.join(dir, `${name}.jsonl`);
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

const screenInput = (before: string, after: string) => compareInput(before, after);

/** The compare report and table computed on the stored rows themselves. */
function onRows(before: string, after: string) {
  const [a, b] = [before, after].map((id) => readDatasetRows(engine.ctx.db, id));
  const input = screenInput(before, after);
  return JSON.parse(JSON.stringify({ report: deltaReport(a, b, { target: input.target, must_not_regress: input.must_not_regress }), task_table: toTaskColumns(pairedTaskTable(perTaskRates(a), perTaskRates(b))) }));
}

async function compare(before: string, after: string) {
  const { report, task_table } = await engine.call('stats.compareReport', screenInput(before, after));
  return { report, task_table };
}

function foldOfRows(id: string): unknown {
  const side = kept.start();
  for (const row of readDatasetRows(engine.ctx.db, id)) kept.add(side, row);
  return side;
}

async function keptSoon(id: string): Promise<unknown> {
  for (let waited = 0; waited < 5000; waited += 50) {
    const version = datasetVersion(engine.ctx.db, id)!;
    const found = keptFold(engine.ctx.db, id, kept.key, version);
    if (found !== undefined) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

beforeAll(async () => {
  await buildEngine();
  dir = tempDir('kept-folds-');
  engine = createEngine({ dbPath: path.join(dir, 'desk.db'), checkOutputs: true });
  for (const [name, shift] of [['baseline', 0], ['candidate', 1]] as const) {
    const result = await importFile(engine, runFile(name, 600, shift), { name, skipInvalid: true });
    expect(result.rows_skipped).toBe(1);
    ids.push(result.dataset_id as string);
  }
});

afterAll(async () => {
  await engine?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('kept folds through the engine', () => {
  it('a dataset\'s first statistic keeps the fold of exactly its stored rows', async () => {
    for (const id of ids) expect(keptFold(engine.ctx.db, id, kept.key, datasetVersion(engine.ctx.db, id)!)).toBeUndefined();
    expect(await compare(ids[0], ids[1])).toEqual(onRows(ids[0], ids[1]));
    for (const id of ids) expect(await keptSoon(id)).toEqual(foldOfRows(id));
  });

  it('an import of large rows keeps the fold of its stored rows as it writes them (several blocks, a bad line, a row stored rewritten)', async () => {
    const big = (name: string, shift: number) => {
      const file = runFile(name, 1500, shift);
      // Each row carries its conversation, as real runs write them: over FOLD_MIN_ROW_BYTES a row on average.
      const lines = fs.readFileSync(file, 'utf8').split('\n').map((line) => {
        if (!line.startsWith('{"scenario_id"')) return line;
        const row = JSON.parse(line) as Record<string, unknown>;
        return JSON.stringify({ ...row, messages: Array.from({ length: 16 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `turn ${i} of ${String(row.prompt)}: and a little more to say` })) });
      });
      fs.writeFileSync(file, lines.join('\n'));
      expect(fs.statSync(file).size).toBeGreaterThan(4 << 20); // more than one parse block
      return file;
    };
    const made: string[] = [];
    for (const [name, shift] of [['big-baseline', 0], ['big-candidate', 1]] as const) {
      const result = await importFile(engine, big(name, shift), { name, skipInvalid: true });
      expect(result.rows_skipped).toBe(1);
      made.push(result.dataset_id as string);
    }
    for (const id of made) expect(keptFold(engine.ctx.db, id, kept.key, datasetVersion(engine.ctx.db, id)!)).toEqual(foldOfRows(id));
    expect(await compare(made[0], made[1])).toEqual(onRows(made[0], made[1]));
    // Small rows are not folded at import (the first statistic folds them): ids[] above kept none until read.
  });

  it('a run keeps, once done, the fold of its rows in slot order (graded rows land out of it)', async () => {
    const judge = path.join(dir, 'judge.mjs');
    fs.writeFileSync(judge, 'export default async (row) => { await new Promise((r) => setTimeout(r, (row.rollout_index * 7) % 5)); return { reward: row.final_text.length % 3 === 0 ? 1 : 0 }; };\n');
    const runs: string[] = [];
    for (const seed of [1, 2]) {
      const run = await runToEnd(engine, { tasks_path: supportTasks, agent: { kind: 'seeded', misbehave_rate: 0.3 }, k: 6, seed, concurrency: 8, judge: { kind: 'module', path: judge } });
      expect(run.status).toBe('done');
      runs.push(run.runId);
    }
    for (const id of runs) expect(keptFold(engine.ctx.db, id, kept.key, datasetVersion(engine.ctx.db, id)!)).toEqual(foldOfRows(id));
    expect(await compare(runs[0], runs[1])).toEqual(onRows(runs[0], runs[1]));
  });

  it('a large run folds in a thread of its own, to the same fold', async () => {
    const run = await runToEnd(engine, { tasks_path: supportTasks, agent: { kind: 'seeded', misbehave_rate: 0.3 }, k: 700, concurrency: 16 });
    expect(run.status).toBe('done');
    const rows = readDatasetRows(engine.ctx.db, run.runId);
    expect(rows.length).toBeGreaterThanOrEqual(5000); // run-folds.ts: WORKER_MIN_ROWS
    expect(keptFold(engine.ctx.db, run.runId, kept.key, datasetVersion(engine.ctx.db, run.runId)!)).toEqual(foldOfRows(run.runId));
  });

  it('the compare report read from kept folds is the report on the rows', async () => {
    expect(await compare(ids[0], ids[1])).toEqual(onRows(ids[0], ids[1]));
    // And it is read from them: kept under the candidate, the baseline's own fold makes the report one of the
    // baseline against itself.
    const fold = (id: string) => serializeFold(foldOfRows(id));
    const version = datasetVersion(engine.ctx.db, ids[1])!;
    keepFold(engine.ctx.db, ids[1], kept.key, version, fold(ids[0]));
    expect(await compare(ids[0], ids[1])).toEqual(onRows(ids[0], ids[0]));
    keepFold(engine.ctx.db, ids[1], kept.key, version, fold(ids[1]));
    expect(await compare(ids[0], ids[1])).toEqual(onRows(ids[0], ids[1]));
  });

  it('after a write, folds the rows again, keeps that fold, and reads it next time', async () => {
    const extra = Array.from({ length: 8 }, (_, i) => toStoredRow({ scenario_id: `task_new_${i >> 2}`, rollout_index: i % 4, prompt: 'New?', final_text: 'r', steps: [], reward: i % 2, category: 'c9' }, 10_000 + i));
    appendRows(engine.ctx.db, ids[1], extra);
    const moved = datasetVersion(engine.ctx.db, ids[1])!;
    expect(keptFold(engine.ctx.db, ids[1], kept.key, moved)).toBeUndefined();
    const truth = onRows(ids[0], ids[1]);
    expect(await compare(ids[0], ids[1])).toEqual(truth);
    expect((await keptSoon(ids[1])) as object).toBeDefined();
    expect(await compare(ids[0], ids[1])).toEqual(truth);
  });

  it('a damaged or missing entry only costs a fold of the rows', async () => {
    const raw = new Database(path.join(dir, 'desk.db'));
    raw.prepare('UPDATE kept_folds SET state = ? WHERE dataset_id = ?').run(Buffer.from([1, 2, 3]), ids[0]);
    raw.prepare('DELETE FROM kept_folds WHERE dataset_id = ?').run(ids[1]);
    raw.close();
    expect(await compare(ids[0], ids[1])).toEqual(onRows(ids[0], ids[1]));
  });

  it('an engine that closes right after a report still keeps the folds it made', async () => {
    const other = createEngine({ dbPath: path.join(dir, 'closing.db') });
    const made: string[] = [];
    try {
      for (const [name, shift] of [['x', 0], ['y', 2]] as const) made.push((await importFile(other, runFile(`closing-${name}`, 200, shift), { name, skipInvalid: true })).dataset_id as string);
      await other.call('stats.compareReport', screenInput(made[0], made[1]));
    } finally {
      await other.close(); // within the moment the worker waits before sending its folds
    }
    const raw = new Database(path.join(dir, 'closing.db'), { readonly: true });
    try {
      const kept = raw.prepare('SELECT k.dataset_id FROM kept_folds k JOIN datasets d ON d.id = k.dataset_id AND d.version = k.version ORDER BY k.dataset_id').pluck().all();
      expect(kept).toEqual([...made].sort());
    } finally {
      raw.close();
    }
  });
});
