// while-desk runs (its issue fills this in; until then it is not listed in --help).
import type { Command } from '../command';

export const runsCommand: Command | null = null;
