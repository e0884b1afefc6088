// Handlers for the runs domain (filled in by its issue).
import type { runsApi } from '../../../shared/api/runs';
import type { HandlerMap } from './types';

export const runsHandlers: HandlerMap<keyof typeof runsApi> = {};
