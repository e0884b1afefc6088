// The models domain of the typed API (filled in by its issue).
import { z } from 'zod';
import { method } from './define';

export const modelsApi = {} as const;

export const modelsEvents = {} as const;

void z;
void method;
