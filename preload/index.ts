// The renderer's only door to the engine: one small object, `window.desk`, over a MessagePort (desk-bridge.ts).
// ipcRenderer itself is never exposed; the only other message is the request for a native open dialog.
import { contextBridge, ipcRenderer } from 'electron';
import type { FileKind } from '../shared/api/file-kinds';
import { createDeskBridge } from './desk-bridge';

const bridge = createDeskBridge((kind: FileKind) => ipcRenderer.invoke('desk:pick-file', kind) as Promise<string | null>);

ipcRenderer.on('desk:port', (event) => {
  if (event.ports[0]) bridge.connect(event.ports[0]);
});

contextBridge.exposeInMainWorld('desk', bridge.desk);
