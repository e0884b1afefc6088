// while-desk conformance --cases DIR [--judges DIR] [--out DIR]: run the SDK conformance cases against the statistics core.
import path from 'node:path';
import { type Command, parseFlags, UsageError } from '../command';
import { runConformance } from '../../engine/index';

export const conformanceCommand: Command = {
  usage: 'while-desk conformance --cases DIR [--judges DIR] [--out DIR]',
  async run(args, io) {
    const { values } = parseFlags(args, { cases: { type: 'string' }, judges: { type: 'string' }, out: { type: 'string' } }, false);
    if (!values.cases) throw new UsageError('--cases DIR is required: the folder holding one sub-folder per case (case.json, inputs, expected.json)');
    const cases = path.resolve(values.cases);
    const judges = path.resolve(values.judges ?? path.join(cases, '..', 'judges'));
    const out = path.resolve(values.out ?? 'conformance-out');
    const { outcomes, failureLine } = await runConformance(cases, judges, out);
    let passed = 0;
    let failed = 0;
    for (const outcome of outcomes) {
      if (outcome.status === 'failed') {
        failed++;
        io.out(`${failureLine(outcome)}\n`);
      } else if (outcome.status === 'passed') passed++;
    }
    io.out(`${passed} passed, ${failed} failed\n`);
    return failed > 0 ? 1 : 0;
  },
};
