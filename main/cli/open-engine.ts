// Opens the engine the CLI commands share, on `--db PATH`, WHILE_DESK_DB, or the app's default database.
import fs from 'node:fs';
import { openEngine, resolveEngineDbPath, type Engine } from '../engine/index';

export interface WithEngineOptions {
  /**
   * A command that writes (run, import) and is refused leaves no database behind that it alone created: when the
   * file did not exist before and holds no dataset after the refusal, it is removed with its -wal and -shm files.
   */
  discardIfRefused?: boolean;
}

export async function withEngine<T>(dbPath: string | undefined, work: (engine: Engine) => Promise<T>, options: WithEngineOptions = {}): Promise<T> {
  const file = await resolveEngineDbPath(dbPath);
  const existed = file === ':memory:' || fs.existsSync(file);
  const engine = await openEngine({ dbPath });
  let discard = false;
  try {
    return await work(engine);
  } catch (error) {
    if (options.discardIfRefused && !existed) discard = (await engine.call('datasets.list', {}).catch(() => [1])).length === 0;
    throw error;
  } finally {
    await engine.close();
    if (discard) for (const suffix of ['', '-wal', '-shm', '-journal']) fs.rmSync(file + suffix, { force: true });
  }
}
