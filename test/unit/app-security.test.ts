import { describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, isAppUrl, isSafeExternalUrl, isWhileHost } from '../../main/app/security';

describe('desktop shell security rules', () => {
  it('opens only https and mailto links externally', () => {
    expect(isSafeExternalUrl('https://while.ai/docs')).toBe(true);
    expect(isSafeExternalUrl('mailto:team@while.ai')).toBe(true);
    for (const url of ['http://while.ai', 'file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'not a url', 'vscode://x']) {
      expect(isSafeExternalUrl(url)).toBe(false);
    }
  });

  it('lets the window show only its own page', () => {
    const index = 'file:///app/out/renderer/index.html';
    expect(isAppUrl('file:///app/out/renderer/index.html#/datasets', index)).toBe(true);
    expect(isAppUrl('file:///etc/passwd', index)).toBe(false);
    expect(isAppUrl('https://evil.example/', index)).toBe(false);
  });

  it('sends keys only to While hosts over https', () => {
    expect(isWhileHost('https://api.while.ai/me')).toBe(true);
    expect(isWhileHost('http://api.while.ai/me')).toBe(false);
    expect(isWhileHost('https://api.while.ai.evil.example/me')).toBe(false);
  });

  it('has a strict CSP: no inline scripts, no eval, no remote origins', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval|script-src[^;]*unsafe-inline|https?:/);
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
  });
});
