// while-desk serve [--port N] [--db PATH]: the app in a browser, on 127.0.0.1.
import fs from 'node:fs';
import path from 'node:path';
import { type Command, dbFlag, intFlag, parseFlags } from '../command';
import { openEngine, packageRoot } from '../../engine/index';
import { startServer } from '../../engine/transports/ws-server';

export const serveCommand: Command = {
  usage: 'while-desk serve [--port N] [--db PATH]',
  async run(args, io) {
    const { values } = parseFlags(args, { ...dbFlag, port: { type: 'string' } }, false);
    const staticDir = path.join(packageRoot(), 'out', 'renderer');
    if (!fs.existsSync(path.join(staticDir, 'index.html'))) {
      io.err('while-desk serve: the app is not built yet; run `npm run build` first\n');
      return 1;
    }
    const engine = await openEngine({ dbPath: values.db, autoSync: true }); // a long-lived host: automatic sync runs when on
    const server = await startServer({ engine, staticDir, port: intFlag(values.port, 'port', 0, 0) });
    io.out(`While Desk is serving at ${server.url}\n`);
    io.out(`database: ${engine.ctx.dbPath}\n`);
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await server.close();
    await engine.close();
    return 0;
  },
};
