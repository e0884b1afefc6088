// API keys in the OS keychain: encrypted with Electron's safeStorage (Keychain, DPAPI, libsecret/kwallet) and
// kept in the app's data folder. Only the engine host asks for them, over its private parentPort.
import fs from 'node:fs';
import path from 'node:path';
import { app, safeStorage } from 'electron';
import type { SecretReply, SecretRequest } from '../engine/parent-secret-store';

function file(): string {
  return path.join(app.getPath('userData'), 'secrets.json');
}

function readAll(): Record<string, string> {
  try {
    return JSON.parse(fs.readFileSync(file(), 'utf8')) as Record<string, string>;
  } catch {
    return {};
  }
}

function writeAll(entries: Record<string, string>): void {
  const target = file();
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(`${target}.tmp`, JSON.stringify(entries), { mode: 0o600 });
  fs.renameSync(`${target}.tmp`, target);
}

function handle(request: SecretRequest): unknown {
  const entries = readAll();
  switch (request.op) {
    case 'list':
      return Object.keys(entries).sort();
    case 'get': {
      const sealed = entries[request.name];
      return sealed ? safeStorage.decryptString(Buffer.from(sealed, 'base64')) : undefined;
    }
    case 'set':
      if (!safeStorage.isEncryptionAvailable()) throw new Error('the OS keychain is not available: use an environment variable and --api-key-env');
      entries[request.name] = safeStorage.encryptString(request.value).toString('base64');
      writeAll(entries);
      return true;
    case 'delete': {
      const existed = request.name in entries;
      delete entries[request.name];
      writeAll(entries);
      return existed;
    }
  }
}

export function answerSecretRequest(request: SecretRequest): SecretReply {
  try {
    return { type: 'secret-reply', id: request.id, ok: true, value: handle(request) };
  } catch (error) {
    return { type: 'secret-reply', id: request.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
}
