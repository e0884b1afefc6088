// Queries on the settings table (key -> JSON value), in one place.
import type { Db } from '../connection';

export function getSetting(db: Db, key: string): unknown {
  const row = db.prepare('SELECT value_json FROM settings WHERE key = ?').get(key) as { value_json: string } | undefined;
  return row ? (JSON.parse(row.value_json) as unknown) : undefined;
}

export function setSetting(db: Db, key: string, value: unknown): void {
  db.prepare(
    `INSERT INTO settings (key, value_json, updated_at) VALUES (?, ?, ?)
     ON CONFLICT(key) DO UPDATE SET value_json = excluded.value_json, updated_at = excluded.updated_at`,
  ).run(key, JSON.stringify(value), new Date().toISOString());
}

export function deleteSetting(db: Db, key: string): boolean {
  return db.prepare('DELETE FROM settings WHERE key = ?').run(key).changes > 0;
}

const MODEL_FOLDERS = 'models.extra_folders';

/** The model folders the person added, in the order added. */
export function modelFolders(db: Db): string[] {
  const value = getSetting(db, MODEL_FOLDERS);
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

export function setModelFolders(db: Db, folders: string[]): void {
  setSetting(db, MODEL_FOLDERS, folders);
}
