// Mounts the app shell (loaded by the entry, main.tsx, once the jobs its address names are asked for).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppShell } from './pages/app-shell';

export function mountApp(): void {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <AppShell />
    </StrictMode>,
  );
}
