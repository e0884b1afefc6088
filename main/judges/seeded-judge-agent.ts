// The `seeded` agent as a rubric, Likert or pairwise judge: no model, an offline dry run. Its answer is a
// deterministic function of what it is shown (the same row gives the same verdict every time), in the reply shape
// the judge asks for, so a grade or a pairs run goes through every step (parsing, markers, trust, labels) with no
// model at hand. Its verdicts measure nothing; judge_meta.model says "seeded".
import { createHash } from 'node:crypto';
import type { Agent } from '../agents/agent-types';

/** A uniform draw in [0, 1) from the text and a salt. */
export function seededDraw(text: string, salt: string): number {
  return createHash('sha256').update(`${salt}\x1f${text}`).digest().readUInt32BE(0) / 2 ** 32;
}

/** An agent whose every reply is `answer(system, user)`. */
export function seededJudgeAgent(answer: (system: string, user: string) => string): Agent {
  return {
    modelVersion: 'seeded',
    sampling: null,
    async turn(request) {
      const system = request.messages.find((m) => m.role === 'system')?.content ?? '';
      const user = request.messages.find((m) => m.role === 'user')?.content ?? '';
      return { text: answer(String(system), String(user)), toolCalls: [], finishReason: 'stop' };
    },
    async close() {},
  };
}
