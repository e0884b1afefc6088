import type { appApi } from '../../../shared/api/app';
import { ENGINE_VERSION } from '../version';
import type { HandlerMap } from './types';

export const appHandlers: HandlerMap<keyof typeof appApi> = {
  'app.info': (_input, ctx) => ({ name: 'while-desk', version: ENGINE_VERSION, db_path: ctx.dbPath, node: process.version }),
};
