// The stats domain of the typed API (filled in by its issue).
import { z } from 'zod';
import { method } from './define';

export const statsApi = {} as const;

export const statsEvents = {} as const;

void z;
void method;
