// The engine's entry: the one module a client process (the CLI) imports from main/engine/ (lint keeps it so; the
// transports beside it are the other door). Everything heavy loads on first use, so `while-desk --help` stays fast
// and `import` starts its parse workers before the engine and SQLite have even loaded.
import type { Engine, EngineOptions } from './engine';

export type { Engine, EngineOptions };
export { ENGINE_VERSION } from './version';
export { packageRoot } from './package-root';

/** Opens an engine on a database (`dbPath`, else WHILE_DESK_DB, else the app's database). */
export async function openEngine(options: EngineOptions = {}): Promise<Engine> {
  const { createEngine } = await import('./engine');
  return createEngine(options);
}

/** The database file an engine opened with this `--db` value would use. */
export async function resolveEngineDbPath(dbPath: string | undefined): Promise<string> {
  return (await import('./engine')).engineDbPath(dbPath);
}

/** Starts the import's parse workers on a file while the engine is still opening (they hand over once it is up). */
export async function warmUpImport(file: string): Promise<void> {
  (await import('../datasets/block-parser')).warmUpImport(file);
}

/** Starts a stats worker reading these JSONL files (absolute paths) while the engine is still opening; the job on them takes it. */
export async function warmUpStatsFiles(files: string[], command?: string): Promise<void> {
  (await import('./warm-up')).warmUpStatsFiles(files, command);
}

/** Starts a stats worker (and its spare helper) for a job on stored datasets while the engine is still opening. */
export async function warmUpStatsDatasets(): Promise<void> {
  (await import('./warm-up')).warmUpStatsDatasets();
}

/** Runs the SDK conformance case folders (an engine tool: the statistics core and judges, in this process). */
export async function runConformance(casesDir: string, judgesDir: string, outDir: string) {
  const { failureLine, runCases } = await import('../conformance/run-cases');
  return { outcomes: await runCases(casesDir, judgesDir, outDir), failureLine };
}
