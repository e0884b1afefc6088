import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/temp';

// The layering of DESIGN.md is a lint rule; these cases prove the rule bites.
async function lintAs(filePath: string, code: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: repoRoot });
  const [result] = await eslint.lintText(code, { filePath: `${repoRoot}/${filePath}` });
  return result.messages.map((message) => message.message);
}

describe('layering lint', () => {
  it('keeps shared/ free of Node built-ins and of main/renderer', async () => {
    expect(await lintAs('shared/api/x.ts', "import fs from 'node:fs';\nexport const a = fs;\n")).toHaveLength(1);
    expect(await lintAs('shared/api/x.ts', "import { createEngine } from '../../main/engine/engine';\nexport const a = createEngine;\n")).toHaveLength(1);
    expect(await lintAs('shared/api/x.ts', "import { method } from './define';\nexport const a = method;\n")).toHaveLength(0);
  });

  it('lets renderer/ import only shared/ and itself', async () => {
    expect(await lintAs('renderer/src/x.ts', "import { createEngine } from '../../main/engine/engine';\nexport const a = createEngine;\n")).toHaveLength(1);
    expect(await lintAs('renderer/src/x.ts', "import { api } from '../../shared/api/index';\nexport const a = api;\n")).toHaveLength(0);
  });

  it('lets only main/app/ import electron', async () => {
    expect(await lintAs('main/engine/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toHaveLength(1);
    expect(await lintAs('main/app/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toHaveLength(0);
  });

  it('keeps the layers inside main/: db at the bottom, agents below simulation and judges, no domain above the engine', async () => {
    const code = (from: string) => `import { a } from '${from}';\nexport const b = a;\n`;
    expect(await lintAs('main/db/x.ts', code('../engine/process-alive'))).toHaveLength(0);
    expect(await lintAs('main/db/x.ts', code('../rows/index'))).toHaveLength(1);
    expect(await lintAs('main/db/x.ts', code('../engine/engine'))).toHaveLength(1);
    expect(await lintAs('main/agents/x.ts', code('../sim/rollout'))).toHaveLength(1);
    expect(await lintAs('main/agents/x.ts', code('../judges/load-judge'))).toHaveLength(1);
    expect(await lintAs('main/sim/x.ts', code('../agents/create-agent'))).toHaveLength(0);
    expect(await lintAs('main/judges/x.ts', code('../agents/create-agent'))).toHaveLength(0);
    for (const domain of ['sim', 'judges', 'rows', 'sync', 'labels', 'sweeps', 'verdicts', 'stats-workers']) {
      expect(await lintAs(`main/${domain}/x.ts`, code('../engine/handlers/datasets'))).toHaveLength(1);
      expect(await lintAs(`main/${domain}/x.ts`, code('../cli/command'))).toHaveLength(1);
    }
  });

  it('lets the CLI import only the engine entry, its transports and shared/', async () => {
    const code = (from: string) => `import { a } from '${from}';\nexport const b = a;\n`;
    expect(await lintAs('main/cli/commands/x.ts', code('../../engine/index'))).toHaveLength(0);
    expect(await lintAs('main/cli/commands/x.ts', code('../../engine/transports/ws-server'))).toHaveLength(0);
    expect(await lintAs('main/cli/commands/x.ts', code('../../../shared/api/index'))).toHaveLength(0);
    expect(await lintAs('main/cli/commands/x.ts', code('../command'))).toHaveLength(0);
    for (const inner of ['../../engine/engine', '../../engine/handlers/datasets', '../../rows/index', '../../judges/load-judge', '../../sim/runs-service', '../../db/connection', '../../stats-workers/jobs']) {
      expect(await lintAs('main/cli/commands/x.ts', code(inner))).toHaveLength(1);
    }
  });
});
