// Opens the engine the CLI commands share, on `--db PATH`, WHILE_DESK_DB, or the app's default database.
import { createEngine, type Engine } from '../engine/engine';

export async function withEngine<T>(dbPath: string | undefined, work: (engine: Engine) => Promise<T>): Promise<T> {
  const engine = createEngine({ dbPath });
  try {
    return await work(engine);
  } finally {
    await engine.close();
  }
}
