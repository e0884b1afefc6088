// The renderer's entry: mounts the app shell. Talks to the engine only through the typed API (api/desk.ts).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppShell } from './pages/app-shell';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <AppShell />
  </StrictMode>,
);
