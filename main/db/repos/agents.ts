// Queries on the agents table (migration 0006): the version of each agent marked serving (`while-desk promote`).
import type { Db } from '../connection';

export function servingVersion(db: Db, name: string): string | null {
  const row = db.prepare('SELECT serving FROM agents WHERE name = ?').get(name) as { serving: string | null } | undefined;
  return row?.serving ?? null;
}

export function allServing(db: Db): Map<string, string | null> {
  const rows = db.prepare('SELECT name, serving FROM agents').all() as Array<{ name: string; serving: string | null }>;
  return new Map(rows.map((r) => [r.name, r.serving]));
}

export function setServing(db: Db, name: string, version: string): void {
  db.prepare(
    `INSERT INTO agents (name, serving, updated_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET serving = excluded.serving, updated_at = excluded.updated_at`,
  ).run(name, version, new Date().toISOString());
}
