// The window: a sidebar with the product's sections, a connection banner, and the page for the current route.
import { useEffect } from 'react';
import { connection } from '../api/desk';
import { useConnection } from '../store/connection-store';
import { hrefFor, useRoute, type Section } from '../store/route-store';
import { DatasetPage } from './datasets/dataset-page';
import { DatasetsPage } from './datasets/datasets-page';
import { LabelPage } from './label/label-page';
import { ComparePage } from './compare/compare-page';
import { AgentVerdictPage } from './compare/agent-verdict';
import { AgentsPage } from './compare/agents-page';
import { SweepPage } from './compare/sweep-page';
import { SweepsPage } from './compare/sweeps-page';
import { RunScreens } from './runs/run-screens';
import { SettingsPage } from './settings/settings-page';
import { SyncPage } from './sync/sync-page';

const NAV: Array<{ section: Section; label: string; key: string }> = [
  { section: 'runs', label: 'Runs and datasets', key: '1' },
  { section: 'label', label: 'Label', key: '2' },
  { section: 'compare', label: 'Compare and sweeps', key: '3' },
  { section: 'sync', label: 'Sync', key: '4' },
  { section: 'settings', label: 'Settings', key: '5' },
];

function ConnectionBanner() {
  const state = useConnection((s) => s.state);
  if (connection.problem) return <div className="banner error" role="alert">Not connected. {connection.problem}</div>;
  if (state === 'refused')
    return (
      <div className="banner error" role="alert">
        Not connected: the engine refused the connection. The token in this address is wrong or expired; open the exact URL that
        <code> while-desk serve </code> printed.
      </div>
    );
  if (state === 'closed')
    return (
      <div className="banner error" role="alert">
        The connection to the engine closed. Start <code>while-desk serve</code> again and open the URL it prints.
      </div>
    );
  return null;
}

function Page() {
  const route = useRoute((s) => s.route);
  if (route.section === 'settings') return <SettingsPage />;
  if (route.section === 'compare' && route.page === 'sweeps') return <SweepsPage />;
  if (route.section === 'compare' && route.page === 'sweep' && route.id) return <SweepPage id={route.id} />;
  if (route.section === 'compare' && route.page === 'agents') return <AgentsPage />;
  if (route.section === 'compare' && route.page === 'agent' && route.id) return <AgentVerdictPage agent={route.id} />;
  if (route.section === 'label') return <LabelPage id={route.id} />;
  if (route.section === 'compare') return <ComparePage />;
  if (route.section === 'sync') return <SyncPage />;
  if (route.page === 'dataset' && route.id) return <DatasetPage id={route.id} tab={route.tab} />;
  if (route.page === 'new-run' || route.page === 'run' || route.page === 'models') return <RunScreens route={route} />;
  return <DatasetsPage />;
}

export function AppShell() {
  const section = useRoute((s) => s.route.section);
  const go = useRoute((s) => s.go);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!event.altKey || event.ctrlKey || event.metaKey) return;
      const item = NAV.find((n) => n.key === event.key);
      if (item) {
        event.preventDefault();
        go(hrefFor({ section: item.section }));
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go]);
  return (
    <div className="shell">
      <nav className="sidebar" aria-label="Sections">
        <div className="brand">While Desk</div>
        <ul>
          {NAV.map((item) => (
            <li key={item.section}>
              <a href={hrefFor({ section: item.section })} aria-current={section === item.section ? 'page' : undefined} title={`Alt+${item.key}`}>
                {item.label}
              </a>
            </li>
          ))}
        </ul>
        <div className="sidebar-foot muted">{connection.host === 'electron' ? 'Desktop app' : 'Browser (while-desk serve)'}</div>
      </nav>
      <main className="content">
        <ConnectionBanner />
        <Page />
      </main>
    </div>
  );
}
