// Where a judge module's syntax error is, as FILE:LINE:COLUMN: `import()` does not say, `node --check` does.
import { spawnSync } from 'node:child_process';

export function syntaxLocation(file: string): string | null {
  const checked = spawnSync(process.execPath, ['--check', file], {
    encoding: 'utf8',
    timeout: 10_000,
    // In the desktop app the engine runs on Electron's binary: make it behave as plain Node for this check.
    env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' },
  });
  const text = checked.stderr ?? '';
  // "/path/judge.mjs:2\n  return (1 +;\n             ^\n"
  const match = /:(\d+)\r?\n(.*)\r?\n( *)\^/.exec(text);
  if (match) return `${file}:${match[1]}:${match[3].length + 1}`;
  const line = /:(\d+)\r?\n/.exec(text);
  return line ? `${file}:${line[1]}` : null;
}
