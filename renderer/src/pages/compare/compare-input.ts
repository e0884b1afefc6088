// The compare report's input from the screen's settings: one function, so the job the window starts early for an
// address #/compare/A/B names (address-jobs.ts) is exactly the one the screen asks for.
const split = (text: string) => text.split(',').map((s) => s.trim()).filter(Boolean);

export function compareInput(baseline: string, candidate: string, guards = '', by = '') {
  return { before: baseline, after: candidate, target: 'pass_at_1', must_not_regress: split(guards), ...(by.trim() ? { by: by.trim() } : {}) };
}

/** The key a compare report's job runs under (its input, as text). */
export const compareKey = (input: ReturnType<typeof compareInput>): string => JSON.stringify(input);
