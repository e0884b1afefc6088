// Handlers for agents and verdicts: list, promote, verdict.
import type { agentsApi } from '../../../shared/api/agents';
import { agentVerdict } from '../../verdicts/agent-verdict';
import { listAgents, promote } from '../../verdicts/agents-service';
import type { HandlerMap } from './types';

export const agentsHandlers: HandlerMap<keyof typeof agentsApi> = {
  'agents.list': (_input, ctx) => listAgents(ctx),
  'agents.promote': (input, ctx) => promote(ctx, input.agent, input.version),
  'agents.verdict': (input, ctx) => agentVerdict(ctx, input.agent, { behavior: input.behavior, version: input.version }),
};
