// Every method and event of the engine, declared once. Clients and handlers are typed from this map.
import type { z } from '../schema/zod';
import { agentsApi } from './agents';
import { appApi } from './app';
import { datasetsApi, datasetsEvents } from './datasets';
import { gradeApi, gradeEvents } from './grade';
import { labelsApi } from './labels';
import { modelsApi, modelsEvents } from './models';
import { pairsApi } from './pairs';
import { runsApi, runsEvents } from './runs';
import { secretsApi } from './secrets';
import { statsApi, statsEvents } from './stats';
import { sweepsApi, sweepsEvents } from './sweeps';
import { syncApi, syncEvents } from './sync';
import { trainingApi, trainingEvents } from './training';

export const api = { ...appApi, ...datasetsApi, ...labelsApi, ...statsApi, ...runsApi, ...modelsApi, ...secretsApi, ...gradeApi, ...syncApi, ...sweepsApi, ...agentsApi, ...trainingApi, ...pairsApi } as const;
export const events = { ...datasetsEvents, ...statsEvents, ...runsEvents, ...modelsEvents, ...gradeEvents, ...syncEvents, ...sweepsEvents, ...trainingEvents } as const;

export type Api = typeof api;
export type MethodName = keyof Api;
export type MethodInput<M extends MethodName> = z.input<Api[M]['input']>;
export type ParsedInput<M extends MethodName> = z.output<Api[M]['input']>;
export type MethodOutput<M extends MethodName> = z.output<Api[M]['output']>;
/** A method's namespace (`stats` of `stats.passAt`), and the methods of one: what the engine loads per domain. */
export type ApiNamespace = MethodName extends `${infer N}.${string}` ? N : never;
export type MethodsOf<N extends ApiNamespace> = Extract<MethodName, `${N}.${string}`>;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

export * from './define';
