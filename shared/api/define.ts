// The one place a method of the typed API is declared: name, zod input, zod output.
import type { z } from '../schema/zod';

export interface MethodSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  input: I;
  output: O;
  /** One line for `--help` listings and the API reference. */
  summary: string;
}

export function method<I extends z.ZodType, O extends z.ZodType>(
  input: I,
  output: O,
  summary: string,
): MethodSpec<I, O> {
  return { input, output, summary };
}

/** An error every transport carries unchanged: a code a program can switch on, a message for a person. */
export interface ApiErrorShape {
  code: ApiErrorCode;
  message: string;
  /** Where the problem is: a field path, `file:line`, a row key. */
  where?: string;
  /** Extra detail, e.g. the per-line import errors. */
  details?: unknown;
}

export type ApiErrorCode =
  | 'bad_input'
  | 'not_found'
  | 'unknown_method'
  | 'conflict'
  | 'cancelled'
  | 'unauthorized'
  | 'failed'
  | 'internal';

export class ApiError extends Error implements ApiErrorShape {
  readonly code: ApiErrorCode;
  readonly where?: string;
  readonly details?: unknown;
  constructor(code: ApiErrorCode, message: string, where?: string, details?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.where = where;
    this.details = details;
  }
  toJSON(): ApiErrorShape {
    return { code: this.code, message: this.message, where: this.where, details: this.details };
  }
  static from(shape: ApiErrorShape): ApiError {
    return new ApiError(shape.code, shape.message, shape.where, shape.details);
  }
}

/** Turns a zod failure into one readable line: `field.path: what was wrong`. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(input)'}: ${issue.message}`)
    .join('; ');
}
