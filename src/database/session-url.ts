import type { AppConfig } from '../config/config';

/**
 * Where work that needs a PostgreSQL session goes (a session advisory lock, LISTEN):
 * DATABASE_DIRECT_URL when set, else DATABASE_URL unless that is a transaction-mode pooler,
 * where a session does not outlive one transaction: then undefined, and that work is done
 * another way or turned off (docs/scaling.md). Undefined also for the embedded database.
 */
export function sessionDatabaseUrl(config: AppConfig): string | undefined {
  const pooled = config.DATABASE_POOLER === 'transaction' ? config.DATABASE_URL : undefined;
  // A "direct" URL equal to the pooler's is no direct connection.
  if (config.DATABASE_DIRECT_URL && config.DATABASE_DIRECT_URL !== pooled) return config.DATABASE_DIRECT_URL;
  return pooled === undefined ? config.DATABASE_URL : undefined;
}
