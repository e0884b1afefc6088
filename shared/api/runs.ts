// The runs domain of the typed API (filled in by its issue).
import { z } from 'zod';
import { method } from './define';

export const runsApi = {} as const;

export const runsEvents = {} as const;

void z;
void method;
