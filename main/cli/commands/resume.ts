// while-desk resume (its issue fills this in; until then it is not listed in --help).
import type { Command } from '../command';

export const resumeCommand: Command | null = null;
