// New run, run progress and the model picker (issue 4); routed here from "Runs and datasets".
import type { Route } from '../../store/route-store';
import { ModelsPage } from './models-page';
import { NewRunPage } from './new-run-page';
import { RunPage } from './run-page';

export function RunScreens({ route }: { route: Route }) {
  if (route.page === 'models') return <ModelsPage />;
  if (route.page === 'run' && route.id) return <RunPage id={route.id} />;
  return <NewRunPage />;
}
