// Every subcommand of `while-desk`, in the order `--help` lists them.
import type { Command } from '../command';
import { conformanceCommand } from './conformance';
import { datasetsCommand } from './datasets';
import { exportCommand } from './export';
import { gradeCommand } from './grade';
import { importCommand } from './import';
import { resumeCommand } from './resume';
import { runCommand } from './run';
import { runsCommand } from './runs';
import { serveCommand } from './serve';
import { statsCommand } from './stats';

export const commands: Command[] = [
  importCommand,
  exportCommand,
  datasetsCommand,
  runCommand,
  runsCommand,
  resumeCommand,
  gradeCommand,
  statsCommand,
  conformanceCommand,
  serveCommand,
].filter((command): command is Command => command !== null);
