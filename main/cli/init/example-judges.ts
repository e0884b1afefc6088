// The example judges `while-desk init` writes: a module judge (JavaScript) and a rules judge (JSON).
// docs/judges.md documents both formats.

export const EXAMPLE_MODULE_JUDGE = `// A module judge: the default export grades one row (docs/judges.md).
// It passes a reply that states the task's reference answer (row.privileged.reference) and called a tool.
export const name = 'states_reference';

export default function judge(row) {
  const reference = String(row.privileged?.reference ?? '').toLowerCase();
  const reply = String(row.final_text ?? '').toLowerCase();
  const calledTool = Array.isArray(row.steps) && row.steps.some((step) => typeof step.tool === 'string');
  const states = reference !== '' && reply.includes(reference);
  return {
    reward: states && calledTool ? 1 : 0,
    reason: states ? (calledTool ? 'states the reference after a tool call' : 'states the reference without checking') : 'misses the reference',
    markers: { called_tool: calledTool ? 1 : 0 },
  };
}
`;

export const EXAMPLE_RULES_JUDGE = {
  name: 'looked_up_and_answered',
  rule: {
    all: [
      { tool_called: 'get_order', min_times: 1 },
      { not: { regex: "\\b(sorry|can't help)\\b", flags: 'i' } },
      { any: [{ contains: 'returned' }, { contains: 'try again' }] },
    ],
  },
  markers: { apologised: { regex: '\\bsorry\\b', flags: 'i' } },
};
