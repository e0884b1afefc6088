// while-desk stats (its issue fills this in; until then it is not listed in --help).
import type { Command } from '../command';

export const statsCommand: Command | null = null;
