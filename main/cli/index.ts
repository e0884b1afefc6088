// `while-desk`: the same engine as the app, headless.
import { ApiError } from '../../shared/api/define';
import { escapeControls, escapeControlsKeepLines } from '../../shared/text/escape-controls';
import { ENGINE_VERSION } from '../engine/index';
import { type CliIo, UsageError } from './command';
import { commands } from './commands/index';

function helpText(): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    `while-desk ${ENGINE_VERSION}: simulate, grade, label and measure LLM agents on your own machine`,
    '',
    'Usage: while-desk <command> [options]',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    '',
    'Every command takes --db PATH (default: $WHILE_DESK_DB, else the app\'s database).',
    'Run `while-desk <command> --help` for its options.',
    '',
  ].join('\n');
}

export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(helpText());
    return 0;
  }
  if (name === '--version' || name === '-v') {
    io.out(`${ENGINE_VERSION}\n`);
    return 0;
  }
  const entry = commands.find((candidate) => candidate.name === name);
  if (!entry) {
    io.err(`while-desk: unknown command "${escapeControls(name)}"\n\n${helpText()}`);
    return 2;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(`${entry.summary}\n\nUsage: ${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    // Messages quote files, flags and lines the person gave: no control character from them reaches the terminal.
    const say = (text: string) => io.err(escapeControlsKeepLines(text));
    if (error instanceof UsageError) {
      say(`while-desk ${name}: ${error.message}\nUsage: ${command.usage}\n`);
      return 2;
    }
    if (error instanceof ApiError) {
      say(`while-desk ${name}: ${error.message}${error.where && !error.message.includes(error.where) ? ` (${error.where})` : ''}\n`);
      return 1;
    }
    say(`while-desk ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}

const processIo: CliIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
  isTty: Boolean(process.stdout.isTTY),
};

export async function main(): Promise<void> {
  const code = await runCli(process.argv.slice(2), processIo);
  // Let stdout drain before the exit code is set; servers keep the process alive on their own.
  process.exitCode = code;
}
