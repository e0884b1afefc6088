// The window: a sidebar with the product's sections, a connection banner, and the page for the current route.
import { lazy, Suspense, useEffect } from 'react';
import { connection } from '../api/desk';
import { useConnection } from '../store/connection-store';
import { hrefFor, useRoute, type Section } from '../store/route-store';

// Each section is its own chunk, loaded when first shown: the window's first paint evaluates only the shell and
// the page it opens on (an annotator opening #/label/ID never waits for the compare, sweep or sync code).
const DatasetPage = lazy(() => import('./datasets/dataset-page').then((m) => ({ default: m.DatasetPage })));
const DatasetsPage = lazy(() => import('./datasets/datasets-page').then((m) => ({ default: m.DatasetsPage })));
const LabelPage = lazy(() => import('./label/label-page').then((m) => ({ default: m.LabelPage })));
const PairLabelPage = lazy(() => import('./label/pair-label-page').then((m) => ({ default: m.PairLabelPage })));
const ComparePage = lazy(() => import('./compare/compare-page').then((m) => ({ default: m.ComparePage })));
const AgentVerdictPage = lazy(() => import('./compare/agent-verdict').then((m) => ({ default: m.AgentVerdictPage })));
const AgentsPage = lazy(() => import('./compare/agents-page').then((m) => ({ default: m.AgentsPage })));
const SweepPage = lazy(() => import('./compare/sweep-page').then((m) => ({ default: m.SweepPage })));
const SweepsPage = lazy(() => import('./compare/sweeps-page').then((m) => ({ default: m.SweepsPage })));
const RunScreens = lazy(() => import('./runs/run-screens').then((m) => ({ default: m.RunScreens })));
const SettingsPage = lazy(() => import('./settings/settings-page').then((m) => ({ default: m.SettingsPage })));
const SyncPage = lazy(() => import('./sync/sync-page').then((m) => ({ default: m.SyncPage })));

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
  if (route.section === 'label' && route.page === 'pairs' && route.id && route.other) return <PairLabelPage a={route.id} b={route.other} />;
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
        <Suspense fallback={<p className="muted" aria-busy="true">Loading…</p>}>
          <Page />
        </Suspense>
      </main>
    </div>
  );
}
