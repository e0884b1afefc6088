// Every method's spec (its zod input and output), by namespace: each namespace's schemas are built when one of its
// methods is first called, as its handlers load (handlers/index.ts), so a one-shot command builds only its own
// (`while-desk stats` the statistics' schemas, not the eleven namespaces' that take some 80 ms here). The type
// makes a namespace without its specs, or specs that miss a method, a compile error.
import type { Api, ApiNamespace as Namespace, MethodName, MethodsOf } from '../../shared/api/index';

type AnySpec = Api[MethodName];

const namespaces: { [N in Namespace]: () => Promise<Pick<Api, MethodsOf<N>>> } = {
  agents: async () => (await import('../../shared/api/agents')).agentsApi,
  app: async () => (await import('../../shared/api/app')).appApi,
  datasets: async () => (await import('../../shared/api/datasets')).datasetsApi,
  grade: async () => (await import('../../shared/api/grade')).gradeApi,
  labels: async () => (await import('../../shared/api/labels')).labelsApi,
  models: async () => (await import('../../shared/api/models')).modelsApi,
  pairs: async () => (await import('../../shared/api/pairs')).pairsApi,
  runs: async () => (await import('../../shared/api/runs')).runsApi,
  secrets: async () => (await import('../../shared/api/secrets')).secretsApi,
  stats: async () => (await import('../../shared/api/stats')).statsApi,
  sweeps: async () => (await import('../../shared/api/sweeps')).sweepsApi,
  sync: async () => (await import('../../shared/api/sync')).syncApi,
  training: async () => (await import('../../shared/api/training')).trainingApi,
};

/** The spec of a method by its name, or undefined when the API has no such method (any string is safe to ask). */
export async function methodSpec(name: string): Promise<{ method: MethodName; spec: AnySpec } | undefined> {
  const dot = name.indexOf('.');
  const namespace = name.slice(0, dot);
  if (dot < 0 || !Object.prototype.hasOwnProperty.call(namespaces, namespace)) return undefined;
  const specs = (await namespaces[namespace as Namespace]()) as Record<string, AnySpec>;
  return Object.prototype.hasOwnProperty.call(specs, name) ? { method: name as MethodName, spec: specs[name] } : undefined;
}
