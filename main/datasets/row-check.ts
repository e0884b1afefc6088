// The full row check of an import (zod's rowSchema, for its messages), kept apart so a parse worker loads zod
// only when a line needs it.
import { describeZodError } from '../../shared/api/define';
import { rowSchema } from '../../shared/schema/row';
import type { RowCheck } from './parse-row-line';

export const rowProblem: RowCheck = (row) => {
  const checked = rowSchema.safeParse(row);
  return checked.success ? null : `not a row: ${describeZodError(checked.error)}`;
};
