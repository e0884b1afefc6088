// Handlers for the models domain (filled in by its issue).
import type { modelsApi } from '../../../shared/api/models';
import type { HandlerMap } from './types';

export const modelsHandlers: HandlerMap<keyof typeof modelsApi> = {};
