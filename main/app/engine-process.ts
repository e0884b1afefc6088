// Starts the engine host in a utilityProcess and hands each window its own MessagePort to it.
import path from 'node:path';
import { MessageChannelMain, utilityProcess, type UtilityProcess, type WebContents } from 'electron';
import type { SecretRequest } from '../engine/parent-secret-store';
import { answerSecretRequest } from './keychain';

export interface EngineProcess {
  connect(contents: WebContents): void;
  stop(): void;
}

export function startEngineProcess(appRoot: string, sqliteBinding: string | undefined): EngineProcess {
  const child: UtilityProcess = utilityProcess.fork(path.join(appRoot, 'out', 'engine', 'host.mjs'), [], {
    serviceName: 'While Desk engine',
    stdio: 'inherit',
    env: { ...process.env, ...(sqliteBinding ? { WHILE_DESK_SQLITE_BINDING: sqliteBinding } : {}) },
  });
  child.on('message', (message: SecretRequest) => {
    if (message?.type === 'secret') child.postMessage(answerSecretRequest(message));
  });
  return {
    connect(contents) {
      const { port1, port2 } = new MessageChannelMain();
      child.postMessage({ type: 'connect' }, [port1]);
      contents.postMessage('desk:port', null, [port2]);
    },
    stop() {
      child.kill();
    },
  };
}
