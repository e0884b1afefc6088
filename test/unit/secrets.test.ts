import { EventEmitter } from 'node:events';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../main/engine/engine';
import { parentSecretStore, type SecretRequest } from '../../main/engine/parent-secret-store';
import { resolveApiKey, setKeychainLookup } from '../../main/agents/api-key';
import { tempDir } from '../helpers/temp';

/** Stands in for Electron main: answers the engine host's keychain requests from a map. */
function fakeMain(): { channel: { postMessage(m: unknown): void; on(e: 'message', l: (event: { data: unknown }) => void): void }; stored: Map<string, string> } {
  const stored = new Map<string, string>();
  const events = new EventEmitter();
  return {
    stored,
    channel: {
      on: (_event, listener) => void events.on('message', listener),
      postMessage: (message) => {
        const request = message as SecretRequest;
        const value =
          request.op === 'list' ? [...stored.keys()] : request.op === 'get' ? stored.get(request.name) : request.op === 'set' ? stored.set(request.name, request.value) && true : stored.delete(request.name);
        setImmediate(() => events.emit('message', { data: { type: 'secret-reply', id: request.id, ok: true, value } }));
      },
    },
  };
}

describe('API keys in the keychain', () => {
  let engine: Engine | undefined;
  afterEach(async () => {
    setKeychainLookup(null);
    await engine?.close();
  });

  it('stores, lists and deletes keys through the desktop host, and never returns a value', async () => {
    const main = fakeMain();
    const secrets = parentSecretStore(main.channel);
    engine = createEngine({ dbPath: path.join(tempDir(), 'desk.db'), secrets });
    expect(await engine.call('secrets.status', {})).toEqual({ available: true, names: [] });
    await engine.call('secrets.set', { name: 'OPENAI_API_KEY', value: 'sk-test' });
    expect(await engine.call('secrets.status', {})).toEqual({ available: true, names: ['OPENAI_API_KEY'] });
    expect(main.stored.get('OPENAI_API_KEY')).toBe('sk-test');
    await expect(engine.callRaw('secrets.set', { name: 'bad name', value: 'x' })).rejects.toMatchObject({ code: 'bad_input' });

    setKeychainLookup(({ envName }) => secrets.get(envName));
    expect(await resolveApiKey({ baseUrl: 'https://api.example.com/v1', env: {} })).toBe('sk-test');
    expect(await resolveApiKey({ baseUrl: 'https://api.example.com/v1', env: { OPENAI_API_KEY: 'from-env' } })).toBe('from-env');

    expect(await engine.call('secrets.delete', { name: 'OPENAI_API_KEY' })).toEqual({ deleted: true });
    expect(await resolveApiKey({ baseUrl: 'https://api.example.com/v1', env: {} })).toBeUndefined();
  });

  it('says plainly that the CLI and serve have no keychain', async () => {
    engine = createEngine({ dbPath: path.join(tempDir(), 'desk.db') });
    expect(await engine.call('secrets.status', {})).toEqual({ available: false, names: [] });
    await expect(engine.callRaw('secrets.set', { name: 'OPENAI_API_KEY', value: 'x' })).rejects.toMatchObject({ message: expect.stringMatching(/--api-key-env/) });
  });
});
