// Migrations in the order they apply. Never edit one that has shipped: add the next file instead.
import { sql as initial } from './0001-initial';

export interface Migration {
  id: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [{ id: 1, name: '0001-initial', sql: initial }];
