import { describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { CONTENT_SECURITY_POLICY, dialogFilters, isAppUrl, isSafeExternalUrl, isWhileHost } from '../../main/app/security';
import { FILE_KINDS, isFileKind } from '../../shared/api/file-kinds';

const here = path.dirname(new URL(import.meta.url).pathname);
const source = (file: string) => fs.readFileSync(path.join(here, '../..', file), 'utf8');

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

  it('keeps the window locked down: isolation, sandbox, no Node, navigation and new windows refused', () => {
    const main = source('main/app/main.ts');
    for (const setting of ['contextIsolation: true', 'sandbox: true', 'nodeIntegration: false', 'nodeIntegrationInWorker: false', 'webSecurity: true']) {
      expect(main).toContain(setting);
    }
    expect(main).toContain('app.enableSandbox()');
    expect(main).toMatch(/will-navigate[\s\S]*preventDefault/);
    expect(main).toMatch(/setWindowOpenHandler[\s\S]*action: 'deny'/);
    expect(main).toMatch(/will-attach-webview[\s\S]*preventDefault/);
  });

  it('exposes one object from the preload, never ipcRenderer itself', () => {
    const preload = source('preload/index.ts');
    expect(preload.match(/exposeInMainWorld\(/g)).toHaveLength(1);
    expect(preload).toContain("exposeInMainWorld('desk', bridge.desk)");
    expect(preload).not.toMatch(/exposeInMainWorld\([^)]*ipcRenderer/);
  });

  it('filters the native open dialog by kind', () => {
    expect(dialogFilters('model')[0]).toEqual({ name: 'Model (GGUF)', extensions: ['gguf'] });
    expect(dialogFilters('judge')[0].extensions).toEqual(['mjs', 'js', 'json']);
    expect(dialogFilters('rubric')[0].extensions).toEqual(['json', 'md', 'txt']);
    for (const kind of ['rows', 'labels', 'tasks'] as const) expect(dialogFilters(kind)[0].extensions).toEqual(['jsonl']);
    expect(dialogFilters('variants')[0].extensions).toEqual(['json']);
    expect(Object.keys(FILE_KINDS).sort()).toEqual(['judge', 'labels', 'model', 'rows', 'rubric', 'tasks', 'variants']);
    expect(isFileKind('toString')).toBe(false);
    expect(isFileKind('__proto__')).toBe(false);
  });
});
