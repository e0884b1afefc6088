// Where the person is: a tiny hash router (`#/datasets/ID/measure`), so the back button and links just work.
import { create } from 'zustand';
import { parseHash, type Route } from './routes';

export { hrefFor, parseHash, type Route, type Section } from './routes';

interface RouteState {
  route: Route;
  go(href: string): void;
}

export const useRoute = create<RouteState>((set) => ({
  route: parseHash(window.location.hash),
  go(href) {
    if (window.location.hash !== href) window.location.hash = href;
    else set({ route: parseHash(href) });
  },
}));

window.addEventListener('hashchange', () => useRoute.setState({ route: parseHash(window.location.hash) }));
