// The renderer's only door to the engine: one small object, `window.desk`, over a MessagePort (desk-bridge.ts).
// ipcRenderer itself is never exposed; the only other messages are the requests for the native open and save dialogs.
import { contextBridge, ipcRenderer } from 'electron';
import type { FileKind } from '../shared/api/file-kinds';
import { createDeskBridge } from './desk-bridge';

const bridge = createDeskBridge(
  (kind: FileKind) => ipcRenderer.invoke('desk:pick-file', kind) as Promise<string | null>,
  (suggestedName: string) => ipcRenderer.invoke('desk:pick-save-path', suggestedName) as Promise<string | null>,
);

ipcRenderer.on('desk:port', (event) => {
  if (event.ports[0]) bridge.connect(event.ports[0]);
});

contextBridge.exposeInMainWorld('desk', bridge.desk);
