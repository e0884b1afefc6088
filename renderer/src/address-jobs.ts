// Jobs the window starts as soon as its address names them, before the page that shows them has rendered: the
// compare screen's report, the slowest first answer of any address. On the opening address the entry (main.tsx)
// starts it before React and the app shell have even loaded; on a later address change, at the change itself, not
// some 300 ms later when React reveals the lazily loaded page and runs its effects. The page's useStatsJob takes
// the job (early-jobs.ts).
import { compareInput, compareKey } from './pages/compare/compare-input';
import { startEarlyJob } from './pages/measure/early-jobs';
import { parseHash } from './store/routes';

export function startAddressJobs(hash: string): void {
  const route = parseHash(hash);
  if (route.section === 'compare' && route.page === 'none' && route.id && route.other) {
    const input = compareInput(route.id, route.other);
    startEarlyJob('stats.compareReport', input, compareKey(input));
  }
}

/** The opening address's jobs now, and each later address's as the address changes. */
export function watchAddressJobs(): void {
  startAddressJobs(window.location.hash);
  window.addEventListener('hashchange', () => startAddressJobs(window.location.hash));
}
