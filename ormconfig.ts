import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ENTITIES } from './src/app.entities';
import { loadConfig } from './src/config/config';
import { dataSourceOptions } from './src/database/data-source';

/**
 * TypeORM CLI entry (npm run migration:run): needs DATABASE_URL; migrates over DATABASE_DIRECT_URL
 * when that is set (behind a transaction pooler), as the app does at boot.
 */
const config = loadConfig();
if (!config.DATABASE_URL) {
  throw new Error('DATABASE_URL is required for the migration CLI (the app migrates the embedded database itself at boot)');
}
const direct = config.DATABASE_DIRECT_URL;
export default new DataSource(
  dataSourceOptions(
    {
      url: direct ?? config.DATABASE_URL,
      embedded: false,
      poolSize: 2,
      statementTimeoutMs: 0,
      pooler: direct ? 'none' : config.DATABASE_POOLER,
    },
    ENTITIES,
  ),
);
