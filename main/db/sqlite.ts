// better-sqlite3, the one way engine code reaches it: loaded by require when the first connection opens.
// Not an ES import: Node 20 imports a CommonJS package into an ES module by scanning its source for named exports
// (cjs-module-lexer) and wrapping it, some 25 ms against 7 ms for require, and every process paid it at start, even
// a command that opens no database (`while-desk stats pass-at FILE`).
import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

let loaded: typeof BetterSqlite3 | null = null;

/** The better-sqlite3 Database class, loaded on the first call. */
export function sqliteDatabase(): typeof BetterSqlite3 {
  loaded ??= createRequire(import.meta.url)('better-sqlite3') as typeof BetterSqlite3;
  return loaded;
}
