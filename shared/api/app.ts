// App-level methods: version and health, so a client can tell it reached the right engine.
import { z } from '../schema/zod';
import { method } from './define';

export const appApi = {
  'app.info': method(
    z.object({}).default({}),
    z.object({ name: z.literal('while-desk'), version: z.string(), db_path: z.string(), node: z.string() }),
    'Engine version and the database it writes',
  ),
} as const;
