// Handlers for the stats domain (filled in by its issue).
import type { statsApi } from '../../../shared/api/stats';
import type { HandlerMap } from './types';

export const statsHandlers: HandlerMap<keyof typeof statsApi> = {};
