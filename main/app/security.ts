// Security rules of the desktop shell, kept free of `electron` imports so they are unit-tested under Node.

import { FILE_KINDS, type FileKind } from '../../shared/api/file-kinds';
import { contentSecurityPolicy } from '../../shared/csp';

/** The desktop window's CSP: the renderer talks to the engine over a MessagePort, so it opens no connections. */
export const CONTENT_SECURITY_POLICY = contentSecurityPolicy("'self'");

const EXTERNAL_SCHEMES = new Set(['https:', 'mailto:']);

/** A link the person clicked may open in the system browser only with these schemes. */
export function isSafeExternalUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return EXTERNAL_SCHEMES.has(url.protocol) && (url.protocol !== 'https:' || url.hostname.length > 0);
  } catch {
    return false;
  }
}

/** The window may only ever show the app's own page; every other navigation is refused. */
export function isAppUrl(raw: string, appIndexUrl: string): boolean {
  try {
    const url = new URL(raw);
    const app = new URL(appIndexUrl);
    return url.protocol === app.protocol && url.host === app.host && url.pathname === app.pathname;
  } catch {
    return false;
  }
}

/** API keys are only ever sent to While's own hosts (and the endpoint the person configured). */
export const WHILE_HOSTS = ['api.while.ai', 'models.while.ai', 'api.withwhile.com', 'models.withwhile.com'];

export function isWhileHost(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' && WHILE_HOSTS.includes(url.hostname);
  } catch {
    return false;
  }
}

/** The open dialog's filters for one kind of file: its own extensions first, then any file. */
export function dialogFilters(kind: FileKind): Array<{ name: string; extensions: string[] }> {
  const { label, extensions } = FILE_KINDS[kind];
  return [
    { name: label, extensions: [...extensions] },
    { name: 'All files', extensions: ['*'] },
  ];
}
