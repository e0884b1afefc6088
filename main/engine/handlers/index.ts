// Every method's handler, by its namespace: each domain's handler map loads when one of its methods is first called,
// so a command that only reads statistics never loads simulation, judges, sync or sweeps (most of the code a CLI
// command would otherwise compile before it can start). The type makes a namespace without its map, or a map that
// misses a method, a compile error.
import type { ApiNamespace as Namespace, MethodsOf, MethodName } from '../../../shared/api/index';
import type { EngineContext } from '../context';
import type { HandlerMap } from './types';


const domains: { [N in Namespace]: () => Promise<HandlerMap<MethodsOf<N>>> } = {
  agents: async () => (await import('./agents')).agentsHandlers,
  app: async () => (await import('./app')).appHandlers,
  datasets: async () => (await import('./datasets')).datasetsHandlers,
  grade: async () => (await import('./grade')).gradeHandlers,
  labels: async () => (await import('./labels')).labelsHandlers,
  models: async () => (await import('./models')).modelsHandlers,
  pairs: async () => (await import('./pairs')).pairsHandlers,
  runs: async () => (await import('./runs')).runsHandlers,
  secrets: async () => (await import('./secrets')).secretsHandlers,
  stats: async () => (await import('./stats')).statsHandlers,
  sweeps: async () => (await import('./sweeps')).sweepsHandlers,
  sync: async () => (await import('./sync')).syncHandlers,
  training: async () => (await import('./training')).trainingHandlers,
};

type AnyHandler = (input: unknown, ctx: EngineContext) => unknown;
const loaded = new Map<string, Promise<Record<string, AnyHandler>>>();

/** One domain's handler map, loaded on first use. */
function domain(namespace: Namespace): Promise<Record<string, AnyHandler>> {
  let handlers = loaded.get(namespace);
  if (!handlers) {
    handlers = (domains[namespace] as () => Promise<unknown>)() as Promise<Record<string, AnyHandler>>;
    loaded.set(namespace, handlers);
    handlers.catch(() => loaded.delete(namespace)); // a failed load is tried again by the next call
  }
  return handlers;
}

/** The handler of a (known) method, its domain loaded on first use. */
export async function handlerFor(method: MethodName): Promise<AnyHandler> {
  return (await domain(method.slice(0, method.indexOf('.')) as Namespace))[method];
}

/** Loads every domain's handlers (a long-lived host does, in the background after open); never rejects. */
export async function loadAllHandlers(): Promise<void> {
  for (const namespace of Object.keys(domains) as Namespace[]) await domain(namespace).catch(() => undefined);
}
