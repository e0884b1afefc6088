// All domains' handler maps combined; the type makes a method without a handler a compile error.
import type { MethodName } from '../../../shared/api/index';
import { appHandlers } from './app';
import { datasetsHandlers } from './datasets';
import { gradeHandlers } from './grade';
import { labelsHandlers } from './labels';
import { modelsHandlers } from './models';
import { runsHandlers } from './runs';
import { secretsHandlers } from './secrets';
import { statsHandlers } from './stats';
import { syncHandlers } from './sync';
import type { HandlerMap } from './types';

export const handlers: HandlerMap<MethodName> = {
  ...appHandlers,
  ...datasetsHandlers,
  ...labelsHandlers,
  ...statsHandlers,
  ...runsHandlers,
  ...modelsHandlers,
  ...secretsHandlers,
  ...gradeHandlers,
  ...syncHandlers,
};
