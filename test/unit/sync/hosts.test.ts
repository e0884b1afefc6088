// Where a While key may go (platform-api §1.2), how keys are masked, and how failures are retried (§7).
import { describe, expect, it } from 'vitest';
import { PlatformError } from '../../../main/sync/errors';
import { isWhileKeyMisdirected, keyAllowedFor, platformUrls } from '../../../main/sync/hosts';
import { maskKey, maskKeysIn } from '../../../main/sync/mask-key';
import { backoffMs, withRetry } from '../../../main/sync/retry';

describe('hosts', () => {
  it('defaults to api.while.ai, takes WHILEAI_API_URL / WHILEAI_PLATFORM_URL, strips the trailing slash', () => {
    expect(platformUrls({})).toEqual({ apiUrl: 'https://api.while.ai', platformUrl: 'https://api.while.ai' });
    expect(platformUrls({ WHILEAI_API_URL: 'http://127.0.0.1:9/', WHILEAI_PLATFORM_URL: '' })).toEqual({ apiUrl: 'http://127.0.0.1:9', platformUrl: 'http://127.0.0.1:9' });
    expect(platformUrls({ WHILEAI_API_URL: 'http://a:1', WHILEAI_PLATFORM_URL: 'http://b:2/' }).platformUrl).toBe('http://b:2');
  });

  it('lets a key go only to While hosts over https, or exactly the host:port the person set', () => {
    const env = { WHILEAI_API_URL: 'http://127.0.0.1:4100' };
    for (const ok of ['https://api.while.ai/me', 'https://x.models.while.ai/v1', 'https://api.withwhile.com/datasets', 'https://zeroproofai--zeroproof-serve-abc.modal.run/x', 'http://127.0.0.1:4100/runs']) {
      expect(keyAllowedFor(ok, env), ok).toBe(true);
    }
    for (const bad of ['http://api.while.ai/me', 'https://api.while.ai:8443/', 'https://evilwhile.ai/', 'https://while.ai.evil.com/', 'http://127.0.0.1:4101/v1', 'https://127.0.0.1:4100/', 'http://localhost:4100/', 'https://api.openai.com/v1', 'https://other.modal.run/', 'not a url']) {
      expect(keyAllowedFor(bad, env), bad).toBe(false);
    }
  });

  it('tells an agent a While key is not for its endpoint', () => {
    expect(isWhileKeyMisdirected(`zp_${'a'.repeat(48)}`, 'http://127.0.0.1:8080/v1', {})).toBe(true);
    expect(isWhileKeyMisdirected(`zp_${'a'.repeat(48)}`, 'https://models.while.ai/v1', {})).toBe(false);
    expect(isWhileKeyMisdirected('sk-openai', 'https://api.openai.com/v1', {})).toBe(false);
  });

  it('masks keys as `wai status` does, also inside messages', () => {
    const key = `zp_${'b'.repeat(44)}wxyz`;
    expect(maskKey(key)).toBe('zp_bbbb...wxyz');
    expect(maskKey('zp_short')).toBe('***');
    expect(maskKey(undefined)).toBeNull();
    expect(maskKeysIn(`refused ${key} there`)).toBe('refused zp_bbbb...wxyz there');
    expect(new PlatformError('http', 400, `bad key ${key}`).message).not.toContain(key);
  });
});

describe('retries', () => {
  it('back off exponentially with full jitter, bounded', () => {
    const policy = { tries: 5, baseMs: 100, maxMs: 1000 };
    expect([0, 1, 2, 3, 4, 10].map((attempt) => backoffMs(attempt, policy, () => 1))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(backoffMs(3, policy, () => 0)).toBe(0);
  });

  it('retry network errors, timeouts and 5xx up to the bound, and nothing else', async () => {
    const policy = { tries: 3, baseMs: 1, maxMs: 2 };
    for (const error of [new PlatformError('network', 0, 'x'), new PlatformError('timeout', 0, 'x'), new PlatformError('http', 503, 'x')]) {
      let calls = 0;
      await expect(withRetry(async () => (calls++, Promise.reject(error)), policy)).rejects.toBe(error);
      expect(calls).toBe(3);
    }
    for (const error of [new PlatformError('http', 401, 'x'), new PlatformError('http', 402, 'x'), new PlatformError('http', 400, 'x'), new Error('bug')]) {
      let calls = 0;
      await expect(withRetry(async () => (calls++, Promise.reject(error)), policy)).rejects.toBe(error);
      expect(calls).toBe(1);
    }
    let calls = 0;
    expect(await withRetry(async () => (++calls < 3 ? Promise.reject(new PlatformError('http', 500, 'x')) : 'ok'), policy)).toBe('ok');
  });
});
