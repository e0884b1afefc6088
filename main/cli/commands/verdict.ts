// while-desk verdict AGENT [--behavior B] [--version V]: the platform's one-line verdict on the agent's local runs,
// the eight eval-health checks and the brief (platform-api.md §5.1-5.3).
import type { AgentVerdictReport } from '../../../shared/api/agents';
import { type Command, dbFlag, jsonFlag, parseFlags, UsageError } from '../command';
import { withEngine } from '../open-engine';
import { formatTable } from '../table';

const mark = (ok: boolean | null) => (ok === true ? 'ok' : ok === false ? 'FAIL' : '-');

export function verdictText(report: AgentVerdictReport): string {
  const { verdict, checks, brief } = report;
  const lines = [verdict.line, '', `eval health: ${checks.good} of ${checks.total} good · ${checks.verdict}`];
  const table = formatTable(['CHECK', '', 'VALUE', 'TO DO'], checks.checks.map((c) => [c.label, mark(c.ok), c.value, c.ok === false ? c.action : '']));
  lines.push(table.trimEnd(), '', 'what happened:', ...brief.happened.map((h) => `  ${h}`), `what it means: ${brief.means}`);
  if (brief.next.length) lines.push('next:', ...brief.next.map((s) => `  - ${s.say}`));
  if (brief.readable.length) lines.push('not readable yet:', ...brief.readable.map((s) => `  - ${s.say}`));
  return lines.join('\n') + '\n';
}

export const verdictCommand: Command = {
  usage: [
    'while-desk verdict AGENT [--behavior B] [--version V] [--db PATH] [--json]',
    '  AGENT          the --agent-name of its runs; `while-desk promote AGENT V` marks the serving version',
    '  --behavior B   the behaviour (default policy: pass@1 x 100; or a judge marker scored on 3+ tasks)',
    '  --version V    the candidate (default: the newest version other than the served one)',
    '  --json         {verdict, checks, brief}',
  ].join('\n'),
  async run(args, io) {
    const { values, positionals } = parseFlags(args, { ...dbFlag, ...jsonFlag, behavior: { type: 'string' }, version: { type: 'string' } });
    if (positionals.length !== 1) throw new UsageError('give exactly one agent name (the --agent-name of its runs)');
    const report = await withEngine(values.db, (engine) =>
      engine.call('agents.verdict', { agent: positionals[0], behavior: values.behavior, version: values.version }),
    );
    if (values.json) io.out(JSON.stringify({ verdict: report.verdict, checks: report.checks, brief: report.brief }) + '\n');
    else io.out(verdictText(report));
    return 0;
  },
};
