// The engine loads each namespace's method specs on its first call (main/engine/method-specs.ts): every method of
// the API resolves to its own spec, and no other name resolves at all (prototype names included).
import { describe, expect, it } from 'vitest';
import { api } from '../../shared/api/index';
import { methodSpec } from '../../main/engine/method-specs';

describe('method specs by namespace', () => {
  it('resolves every method of the API to its own spec', async () => {
    const names = Object.keys(api);
    expect(names.length).toBeGreaterThan(40);
    for (const name of names) {
      const found = await methodSpec(name);
      expect(found?.method).toBe(name);
      expect(found?.spec).toBe(api[name as keyof typeof api]);
    }
  });

  it('resolves nothing else', async () => {
    for (const name of ['stats', 'stats.', '.passAt', 'nope.passAt', 'stats.nope', '__proto__.x', 'stats.__proto__', 'stats.constructor', 'toString', 'constructor.name', '']) {
      expect(await methodSpec(name)).toBeUndefined();
    }
  });
});
