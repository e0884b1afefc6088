// while-desk conformance (its issue fills this in; until then it is not listed in --help).
import type { Command } from '../command';

export const conformanceCommand: Command | null = null;
