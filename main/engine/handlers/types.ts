import type { MethodName, MethodOutput, ParsedInput } from '../../../shared/api/index';
import type { EngineContext } from '../context';

export type Handler<M extends MethodName> = (input: ParsedInput<M>, ctx: EngineContext) => Promise<MethodOutput<M>> | MethodOutput<M>;

/** One domain's handler map: exactly the methods named in Names, each typed from shared/api. */
export type HandlerMap<Names extends MethodName> = { [M in Names]: Handler<M> };
