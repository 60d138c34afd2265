import { Global, Module, OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/config';
import { dataSourceOptions } from './data-source';
import { EmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres';
import { runMigrations } from './migrate';

let embedded: EmbeddedPostgres | undefined;

async function databaseUrl(config: AppConfig): Promise<{ url: string; embedded: boolean }> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, embedded: false };
  embedded ??= await startEmbeddedPostgres(join(config.DATA_DIR, 'pg'));
  return { url: embedded.url, embedded: true };
}

class EmbeddedDatabaseShutdown implements OnApplicationShutdown {
  async onApplicationShutdown(): Promise<void> {
    const running = embedded;
    embedded = undefined;
    await running?.stop();
  }
}

/** TypeORM over PostgreSQL (or embedded PGlite); migrations run at boot under an advisory lock. */
@Global()
@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig) => {
        const target = await databaseUrl(config);
        return {
          ...dataSourceOptions({
            ...target,
            poolSize: config.DATABASE_POOL_SIZE,
            statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
          }),
          autoLoadEntities: true,
        };
      },
      dataSourceFactory: async (options) => {
        const dataSource = await new DataSource(options!).initialize();
        await runMigrations(dataSource);
        return dataSource;
      },
    }),
  ],
  providers: [EmbeddedDatabaseShutdown],
})
export class DatabaseModule {}
