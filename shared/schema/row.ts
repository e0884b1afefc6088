// Row v1 (sdk-semantics §1): as lenient as the SDK. Unknown keys ride through untouched.
import { z } from './zod';

/** A step is a user turn, a tool call or an agent text turn; extra keys are kept (anyOf, not oneOf: §1.3). */
export const stepSchema = z.looseObject({
  user: z.string().optional(),
  tool: z.string().optional(),
  arguments: z.unknown().optional(),
  result: z.unknown().optional(),
  text: z.string().optional(),
});

const reward = z
  .union([z.number(), z.null(), z.boolean()])
  .optional()
  .superRefine((value, ctx) => {
    if (typeof value === 'boolean') {
      ctx.addIssue({
        code: 'custom',
        message: 'reward is a boolean; the SDK refuses booleans (reward_is_bool): use 1 or 0',
      });
    }
  });

const calibration = z.looseObject({
  n: z.number().int().min(1, 'calibration.n must be at least 1'),
  pass_rate: z.number().min(0).max(1, 'calibration.pass_rate must lie in [0, 1]'),
});

export const rowSchema = z.looseObject({
  schema_version: z.literal('1', { message: 'schema_version must be the string "1"' }),
  prompt: z.string({ message: 'prompt must be a string' }),
  steps: z.array(z.unknown(), { message: 'steps must be a list' }),
  final_text: z.string({ message: 'final_text must be a string' }),
  reward,
  calibration: calibration.nullable().optional(),
});

export type Step = z.infer<typeof stepSchema>;
export type RowV1 = z.infer<typeof rowSchema> & Record<string, unknown>;
