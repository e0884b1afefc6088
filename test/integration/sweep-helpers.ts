// Helpers for the sweep tests: a task set with distinct prompts (asks are distinct prompts, §6), variants files.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { root } from './sim-run-helpers';

export const referenceJudge = path.join(root, 'test', 'fixtures', 'tasks', 'reference-judge.mjs');

/** `count` tasks cycled from the support fixture, each with its own scenario_id and prompt. */
export function writeTasks(file: string, count: number): void {
  const base = fs.readFileSync(path.join(root, 'test', 'fixtures', 'tasks', 'support.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  const lines = Array.from({ length: count }, (_, i) => {
    const t = base[i % base.length];
    return JSON.stringify({ ...t, scenario_id: `${String(t.scenario_id)}-${i}`, prompt: `${String(t.prompt)} (ticket ${i})` });
  });
  fs.writeFileSync(file, lines.join('\n') + '\n');
}

export function writeJson(file: string, value: unknown): string {
  fs.writeFileSync(file, JSON.stringify(value, null, 2));
  return file;
}

/** Rows per run of a sweep, from the database itself. */
export function armRows(db: string, sweepId: string): Array<{ arm: number; rerun: number; run_id: string; rows: number; slots: number }> {
  const reader = new Database(db, { readonly: true });
  try {
    return reader
      .prepare(
        `SELECT s.arm, s.rerun, s.run_id,
                (SELECT COUNT(*) FROM rows x WHERE x.dataset_id = s.run_id) AS rows,
                (SELECT COUNT(DISTINCT x.scenario_id || '#' || x.rollout_index) FROM rows x WHERE x.dataset_id = s.run_id) AS slots
         FROM sweep_runs s WHERE s.sweep_id = ? ORDER BY s.rerun, s.arm`,
      )
      .all(sweepId) as Array<{ arm: number; rerun: number; run_id: string; rows: number; slots: number }>;
  } finally {
    reader.close();
  }
}

export function tableCount(db: string, table: string): number {
  if (!fs.existsSync(db)) return 0;
  const reader = new Database(db, { readonly: true });
  try {
    return (reader.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    reader.close();
  }
}
