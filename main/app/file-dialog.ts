// The native open and save dialogs the preload asks for (`window.desk.pickFile(kind)`, `pickSavePath(name)`): modal
// to the window that asked, and answered only for the app's own page. Each resolves to the chosen path or null.
import { BrowserWindow, dialog, ipcMain, type IpcMainInvokeEvent } from 'electron';
import { FILE_KINDS, isFileKind } from '../../shared/api/file-kinds';
import { dialogFilters, isAppUrl } from './security';

export function handleFileDialogs(appIndexUrl: string): void {
  ipcMain.handle('desk:pick-file', async (event: IpcMainInvokeEvent, kind: unknown): Promise<string | null> => {
    if (!isAppUrl(event.senderFrame?.url ?? '', appIndexUrl)) return null;
    if (!isFileKind(kind)) throw new Error(`no file kind "${String(kind)}"`);
    const window = BrowserWindow.fromWebContents(event.sender);
    const options = { title: `Open ${FILE_KINDS[kind].label}`, properties: ['openFile' as const], filters: dialogFilters(kind) };
    const picked = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
    return picked.canceled || picked.filePaths.length === 0 ? null : picked.filePaths[0];
  });
  ipcMain.handle('desk:pick-save-path', async (event: IpcMainInvokeEvent, suggested: unknown): Promise<string | null> => {
    if (!isAppUrl(event.senderFrame?.url ?? '', appIndexUrl)) return null;
    // Only a file name is suggested (a page never names a folder); the person picks where it goes.
    const name = typeof suggested === 'string' ? suggested.replace(/[\\/]/g, '_').slice(0, 200) : 'export.jsonl';
    const window = BrowserWindow.fromWebContents(event.sender);
    const options = { title: 'Save as', defaultPath: name, filters: [{ name: 'JSON Lines', extensions: ['jsonl'] }] };
    const picked = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
    return picked.canceled || !picked.filePath ? null : picked.filePath;
  });
}
