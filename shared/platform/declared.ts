// The behaviours this client declared itself (platform-api.md §5.1 step 7): a field the server may not store yet
// (`gradedBy`) still reaches the verdict and the checks from the local declaration, as the SDK's _with_declared does.
import type { BehaviorWire, DashboardWire } from './types';

/** The behaviour with `gradedBy` filled from the local declaration of the same name when it carries none. */
export function withDeclared(b: BehaviorWire, declared: readonly BehaviorWire[] | undefined): BehaviorWire {
  if (!declared?.length || (b.gradedBy !== null && b.gradedBy !== undefined)) return b;
  const local = declared.find((d) => d && d.name === b.name);
  return local?.gradedBy ? { ...b, gradedBy: local.gradedBy } : b;
}

/** The dashboard and the behaviour list as the SDK reads them after filling from the local declarations. */
export function applyDeclared(dash: DashboardWire, behaviors: readonly BehaviorWire[], declared: readonly BehaviorWire[] | undefined): { dash: DashboardWire; behaviors: BehaviorWire[] } {
  return {
    dash: dash.behavior ? { ...dash, behavior: withDeclared(dash.behavior, declared) } : dash,
    behaviors: behaviors.map((b) => withDeclared(b, declared)),
  };
}
