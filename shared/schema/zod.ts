// The one door to zod: the builders the app uses, by name, and zod's types under the same `z`. zod's own `z` is a
// namespace object holding all of zod (JSON Schema conversion, string formats, codecs...), and a bundle that imports
// it keeps all of it: 391 KB that every CLI command, the engine host and the window evaluated at start, some 55 ms
// here. Named imports let the bundler leave out what is not named below: 180 KB, some 30 ms. Lint refuses `zod`
// anywhere else, so the saving holds; a builder the code needs is added here (the type checker says which).
import {
  array, boolean, discriminatedUnion, enum as enumOf, int, lazy, literal, looseObject, NEVER, null as nullOf, number, object,
  preprocess, record, strictObject, string, tuple, union, unknown,
} from 'zod';
import type * as zod from 'zod';

export const z = {
  array, boolean, discriminatedUnion, enum: enumOf, int, lazy, literal, looseObject, NEVER, null: nullOf, number, object,
  preprocess, record, strictObject, string, tuple, union, unknown,
};

// The types, read as zod's own (`z.infer<typeof schema>`): a namespace of types only merges with the value above.
export declare namespace z {
  export type infer<T> = zod.infer<T>;
  export type input<T> = zod.input<T>;
  export type output<T> = zod.output<T>;
  export type ZodType<Output = unknown, Input = unknown> = zod.ZodType<Output, Input>;
  export type ZodObject<Shape extends zod.ZodRawShape = zod.ZodRawShape> = zod.ZodObject<Shape>;
  export type ZodLiteral<T extends zod.core.util.Literal = zod.core.util.Literal> = zod.ZodLiteral<T>;
  export type ZodError<T = unknown> = zod.ZodError<T>;
}
