import { DynamicModule, Global, Logger, Module, OnApplicationShutdown, Type } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/config';
import { DomainEventBus } from '../events/domain-event-bus';
import { TRANSACTION_PHASE_WRITERS, type TransactionPhaseWriter } from '../events/transaction-phase';
import { dataSourceOptions, EntityList } from './data-source';
import { EmbeddedPostgres, startEmbeddedPostgres } from './embedded-postgres';
import { runMigrations, runMigrationsThroughPooler } from './migrate';
import { unnamedStatementsOn } from './prepared-query';
import { bindStatements } from './statement';
import { sessionDatabaseUrl } from './session-url';
import { UnitOfWork } from './unit-of-work';

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

/** Carries the config from the options factory to the data source factory (Nest hands over only the options). */
const CONFIG = Symbol('app config');

const behindPooler = (config: AppConfig) => Boolean(config.DATABASE_URL) && config.DATABASE_POOLER === 'transaction';

/**
 * Migrations at boot, under an advisory lock: on the app's own connections when they reach
 * PostgreSQL directly, over DATABASE_DIRECT_URL when that is set apart, and through the
 * transaction pooler in one transaction when there is no direct connection.
 */
async function migrate(dataSource: DataSource, config: AppConfig): Promise<void> {
  const session = sessionDatabaseUrl(config);
  if (!config.DATABASE_URL || session === config.DATABASE_URL) return runMigrations(dataSource);
  if (session === undefined) return runMigrationsThroughPooler(dataSource);
  const direct = await new DataSource(
    dataSourceOptions({ url: session, embedded: false, poolSize: 1, statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS }),
  ).initialize();
  try {
    await runMigrations(direct);
  } finally {
    await direct.destroy();
  }
}

/** Behind a transaction pooler: say at boot what works differently and what is off. */
async function reportPooler(dataSource: DataSource, config: AppConfig): Promise<void> {
  const logger = new Logger('Database');
  logger.log('DATABASE_POOLER=transaction: statements run unnamed (no server-side prepared statements)');
  if (!sessionDatabaseUrl(config)) {
    logger.warn(
      'DATABASE_POOLER=transaction without DATABASE_DIRECT_URL: migrations run in one transaction under a ' +
        'transaction-level advisory lock, and the credential cache is off (every SCIM and developer token call reads its table)',
    );
  }
  const [row] = await dataSource.query<{ statement_timeout: string }[]>('SHOW statement_timeout');
  if (row?.statement_timeout === '0') {
    logger.warn(
      'no statement timeout on the pooled connections (a pooler refuses it as a startup parameter): ' +
        "set one on the database role (ALTER ROLE … SET statement_timeout = '15s') or the pooler's query_timeout",
    );
  }
}

/** The writers of the transaction phase, in order, and the modules that provide them. */
export interface TransactionPhase {
  imports: Type[];
  writers: Type<TransactionPhaseWriter>[];
}

/**
 * TypeORM over PostgreSQL (or embedded PGlite); migrations run at boot under an advisory lock. The
 * app layer hands in its entity list (src/app.entities.ts): this module names no feature. It also
 * provides the unit of work and the domain event bus every service runs its changes through, with
 * the transaction-phase writers the app names (`transactionPhase`, the audit writer first).
 * Global, with the configuration, and the only other global module: every feature needs it.
 */
@Global()
@Module({})
export class DatabaseModule {
  static forRoot(entities: EntityList, transactionPhase: TransactionPhase): DynamicModule {
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          inject: [APP_CONFIG],
          useFactory: async (config: AppConfig) => {
            const target = await databaseUrl(config);
            return {
              ...dataSourceOptions(
                {
                  ...target,
                  poolSize: config.DATABASE_POOL_SIZE,
                  statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
                  pooler: behindPooler(config) ? 'transaction' : 'none',
                },
                entities,
              ),
              autoLoadEntities: true,
              [CONFIG]: config,
            };
          },
          dataSourceFactory: async (options) => {
            const dataSource = await new DataSource(options!).initialize();
            const config = (options as { [CONFIG]?: AppConfig })[CONFIG]!;
            if (behindPooler(config)) {
              unnamedStatementsOn(dataSource);
              await reportPooler(dataSource, config);
            }
            await migrate(dataSource, config);
            // Every typed statement's row shape against the entities: a renamed column fails here, not on a request.
            bindStatements(dataSource);
            return dataSource;
          },
        }),
        ...transactionPhase.imports,
      ],
      providers: [
        EmbeddedDatabaseShutdown,
        {
          provide: TRANSACTION_PHASE_WRITERS,
          inject: transactionPhase.writers,
          useFactory: (...writers: TransactionPhaseWriter[]) => writers,
        },
        DomainEventBus,
        UnitOfWork,
      ],
      exports: [DomainEventBus, UnitOfWork, TRANSACTION_PHASE_WRITERS],
    };
  }
}
