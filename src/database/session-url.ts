import type { AppConfig } from '../config/config';

/**
 * Where work that needs a PostgreSQL session goes (a session advisory lock, LISTEN):
 * DATABASE_DIRECT_URL when set, else DATABASE_URL unless that is a transaction-mode pooler,
 * where a session does not outlive one transaction: then undefined, and that work is done
 * another way or turned off (docs/scaling.md). Undefined also for the embedded database.
 */
export function sessionDatabaseUrl(config: AppConfig): string | undefined {
  if (config.DATABASE_DIRECT_URL) return config.DATABASE_DIRECT_URL;
  if (config.DATABASE_POOLER === 'transaction') return undefined;
  return config.DATABASE_URL;
}
