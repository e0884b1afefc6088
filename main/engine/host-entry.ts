// Engine host for the desktop app: runs in an Electron utilityProcess (plain Node APIs, no `electron` import).
// Electron main hands it one MessagePort per window; the renderer talks to the engine directly over that port.
import type { RpcMessage } from '../../shared/api/rpc';
import { setKeychainLookup } from '../agents/api-key';
import { createEngine } from './engine';
import { parentSecretStore } from './parent-secret-store';
import { serveRpc } from './rpc-server';

interface PortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
  start(): void;
}

interface ParentPort {
  on(event: 'message', listener: (event: { data: unknown; ports: PortLike[] }) => void): void;
  postMessage(message: unknown): void;
}

const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;
if (!parentPort) {
  process.stderr.write('host-entry must be started as an Electron utilityProcess\n');
  process.exit(1);
}

const secrets = parentSecretStore(parentPort);
// An agent's key: --api-key-env NAME first, then the keychain entry stored under that same NAME.
setKeychainLookup(({ envName }) => secrets.get(envName));

const engine = createEngine({
  dbPath: process.env.WHILE_DESK_DB || undefined,
  nativeBinding: process.env.WHILE_DESK_SQLITE_BINDING || undefined,
  secrets,
  autoSync: true,
});

parentPort.on('message', (event) => {
  const data = event.data as { type?: string };
  if (data?.type !== 'connect' || !event.ports[0]) return;
  const port = event.ports[0];
  serveRpc(engine, {
    send: (message) => port.postMessage(message),
    onMessage: (listener) => port.on('message', (e) => listener(e.data as RpcMessage)),
  });
  port.start();
});

parentPort.postMessage({ type: 'ready', dbPath: engine.ctx.dbPath });

process.on('SIGTERM', () => {
  void engine.close().finally(() => process.exit(0));
});
