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
});
