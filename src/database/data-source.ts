import { DataSourceOptions } from 'typeorm';
import { MIGRATIONS } from './migrations';

export interface DatabaseTarget {
  url: string;
  embedded: boolean;
  poolSize: number;
  statementTimeoutMs: number;
  /**
   * `transaction`: `url` is a pooler in transaction mode. PgBouncer refuses startup parameters
   * other than a handful (application_name, client_encoding…), so the per-connection timeouts are
   * not sent: they come from the database role or the pooler (docs/scaling.md).
   */
  pooler?: 'none' | 'transaction';
}

/** The entity classes a data source maps (the app's list is src/app.entities.ts). */
export type EntityList = Extract<NonNullable<DataSourceOptions['entities']>, unknown[]>;

/**
 * One description of the database shared by the app, the CLI (ormconfig.ts) and the tests. The
 * entities come from the caller (the app layer's list) so that this layer names no feature; a
 * data source that only migrates passes none.
 */
export function dataSourceOptions(target: DatabaseTarget, entities: EntityList = []): DataSourceOptions {
  return {
    type: 'postgres',
    url: target.url,
    // TypeORM's default uuid_generate_v4() needs uuid-ossp, which PGlite lacks.
    uuidExtension: 'pgcrypto',
    synchronize: false,
    migrationsRun: false,
    entities,
    migrations: MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    // A 0.3-style findOneBy({ id: undefined }) returns the table's first row; make it throw.
    invalidWhereValuesBehavior: { null: 'throw', undefined: 'throw' },
    extra: {
      max: target.embedded ? 1 : target.poolSize,
      connectionTimeoutMillis: 5000,
      ...(target.pooler === 'transaction'
        ? {}
        : { statement_timeout: target.statementTimeoutMs, idle_in_transaction_session_timeout: 60000 }),
    },
  } as DataSourceOptions;
}
