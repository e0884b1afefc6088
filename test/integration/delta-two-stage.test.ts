// delta_report in two stages (issue 30): each side's summary folded in a thread of its own (the worker and a helper,
// large sides in parts, the rows cut to the fields delta_report reads), then the paired stage on the two summaries
// (deltaReportOfSides). On generated runs as real runs write them (realisticRow: conversations, tool calls, markers
// and slices added here), through the engine, from files and from imported datasets (whose imports keep the fold),
// it must give byte for byte what the one-stage deltaReport gives on the whole rows, with the options that change
// what the sides gather; and balance_rollouts, which trims both sides together, takes the one-stage path.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../main/engine/engine';
import { importFile } from '../../main/cli/import-file';
import { deltaReport } from '../../shared/stats/delta-report';
import { buildEngine } from '../helpers/build-engine';
import { tempDir } from '../helpers/temp';
// @ts-expect-error the bench generator is plain JavaScript
import { realisticRow } from '../bench/generate-rows.mjs';

type Obj = Record<string, unknown>;
let dir: string;
let engine: Engine;
const files: string[] = [];
const rows: Obj[][] = [];
const ids: string[] = [];

function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
}

/** `tasks` x 4 realistic rows, with markers, a slice key and re-run ids, some tasks with 3 rollouts. */
function run(seed: number, shift: number, tasks: number): Obj[] {
  const rand = lcg(seed);
  const out: Obj[] = [];
  for (let t = 0; t < tasks; t++) {
    const p = Math.min(1, rand() + shift);
    for (let r = 0; r < (t % 9 === 0 ? 3 : 4); r++) {
      const row = realisticRow(t, r, p, rand) as Obj;
      row.markers = { policy_cited: rand() < p ? 1 : 0, hedging: Math.round(rand() * 100) / 100 };
      if (t % 3 === 0) row.slice = `s${t % 2}`;
      (row.lineage as Obj).eval_run = r % 2;
      out.push(row);
    }
  }
  return out;
}

beforeAll(async () => {
  await buildEngine();
  dir = tempDir('delta-two-stage-');
  engine = createEngine({ dbPath: path.join(dir, 'desk.db'), checkOutputs: true });
  // 5,200 tasks a side: over the size at which a side is folded in two parts (a file over 4 MiB, a dataset over 20,000 rows).
  for (const [seed, shift] of [[1, 0], [2, 0.05]]) {
    const side = run(seed, shift, 5200);
    const file = path.join(dir, `side-${seed}.jsonl`);
    fs.writeFileSync(file, side.map((row) => JSON.stringify(row)).join('\n') + '\n');
    rows.push(side);
    files.push(file);
    ids.push((await importFile(engine, file, { name: `side-${seed}`, skipInvalid: false })).dataset_id as string);
  }
});

afterAll(async () => {
  await engine?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const OPTIONS: Obj[] = [
  { target: 'pass_at_1' },
  { target: 'pass_at_1', must_not_regress: ['policy_cited'], by: 'category', n_boot: 500 },
  { target: 'hedging', must_not_regress: ['policy_cited'], by: 'slice', n_boot: 500, seed: 3 },
  { target: 'pass_at_1', balance_rollouts: true, n_boot: 500 },
];

describe('delta_report in two stages', () => {
  it('gives what the one-stage report gives on the whole rows, from files and from datasets', async () => {
    for (const options of OPTIONS) {
      const oneStage = JSON.stringify(deltaReport(rows[0], rows[1], options));
      for (const [before, after] of [[{ path: files[0] }, { path: files[1] }], [ids[0], ids[1]]]) {
        const out = await engine.call('stats.delta', { before, after, ...options } as never);
        expect(JSON.stringify(out.report), JSON.stringify(options)).toBe(oneStage);
      }
    }
  });
});
