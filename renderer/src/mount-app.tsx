// Mounts the app shell (loaded by the entry, main.tsx, once the jobs its address names are asked for).
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { AppShell } from './pages/app-shell';

export function mountApp(): void {
  const root = createRoot(document.getElementById('root')!);
  // As a transition, the first render yields to the browser every few milliseconds: rendered in one piece it was a
  // task of 14-62 ms here, over 50 when the engine shares the cores (the compare screen opened straight from its address).
  startTransition(() =>
    root.render(
      <StrictMode>
        <AppShell />
      </StrictMode>,
    ),
  );
}
