// API keys kept in the OS keychain (desktop app only): names are listed, values are never read back out.
import { z } from '../schema/zod';
import { method } from './define';

const secretName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'a key name is an environment-variable-like name, e.g. OPENAI_API_KEY');

export const secretsApi = {
  'secrets.status': method(
    z.object({}).default({}),
    z.object({ available: z.boolean(), names: z.array(z.string()) }),
    'Whether this host has an OS keychain, and the names of the keys stored there',
  ),
  'secrets.set': method(
    z.object({ name: secretName, value: z.string().min(1, 'the key is empty').max(4096) }),
    z.object({ stored: z.boolean() }),
    'Store an API key in the OS keychain under a name (agents read it like --api-key-env NAME)',
  ),
  'secrets.delete': method(z.object({ name: secretName }), z.object({ deleted: z.boolean() }), 'Remove a stored key'),
} as const;
