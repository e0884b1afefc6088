// Electron main: one secure window, the engine in a utilityProcess, and nothing else.
import fs from 'node:fs';
import path from 'node:path';
import { app, BrowserWindow, session, shell } from 'electron';
import { startEngineProcess, type EngineProcess } from './engine-process';
import { handleFileDialogs } from './file-dialog';
import { CONTENT_SECURITY_POLICY, isAppUrl, isSafeExternalUrl } from './security';

const appRoot = app.getAppPath();
const indexFile = path.join(appRoot, 'out', 'renderer', 'index.html');
const indexUrl = new URL(`file://${indexFile}`).href;

/** A better-sqlite3 built for Electron's ABI (see README: `npm run rebuild:electron`). */
function electronSqliteBinding(): string | undefined {
  const candidate = path.join(appRoot, 'native', 'electron', 'better_sqlite3.node');
  return fs.existsSync(candidate) ? candidate : undefined;
}

let engine: EngineProcess | null = null;

function createWindow(): void {
  const window = new BrowserWindow({
    width: 1280,
    height: 820,
    title: 'While Desk',
    show: false,
    webPreferences: {
      preload: path.join(appRoot, 'out', 'preload', 'index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      spellcheck: false,
    },
  });
  window.once('ready-to-show', () => window.show());
  window.webContents.on('did-finish-load', () => engine?.connect(window.webContents));
  void window.loadFile(indexFile);
}

function hardenSessions(): void {
  session.defaultSession.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  app.on('web-contents-created', (_event, contents) => {
    contents.on('will-navigate', (event, url) => {
      if (!isAppUrl(url, indexUrl)) event.preventDefault();
    });
    contents.on('will-attach-webview', (event) => event.preventDefault());
    contents.setWindowOpenHandler(({ url }) => {
      if (isSafeExternalUrl(url)) void shell.openExternal(url);
      return { action: 'deny' };
    });
  });
}

app.enableSandbox();
void app.whenReady().then(() => {
  hardenSessions();
  handleFileDialogs(indexUrl);
  engine = startEngineProcess(appRoot, electronSqliteBinding());
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
});

app.on('window-all-closed', () => {
  engine?.stop();
  if (process.platform !== 'darwin') app.quit();
});
