import { Inject, Injectable } from '@nestjs/common';
import type { DeveloperPrincipal } from '../common/auth/principal';
import { DomainError } from '../common/errors';
import { isUuid } from '../common/ids';
import type { RequestMeta } from '../common/request-context';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { UnitOfWork } from '../database/unit-of-work';
import { DomainEventBus } from '../events/domain-event-bus';
import { JobsService } from '../jobs/jobs.service';
import type { WorkspaceScope } from '../workspaces/workspace-scoped';
import type { CreateDatabaseDto } from './dto/database.dto';
import { EngineRegistry } from './engine-registry';
import { generateDbName, generatePassword, usernameFor } from './engines/credentials';
import { EngineObjectMissingError, type EngineName, type HealthReport } from './engines/database-engine';
import type { ManagedDatabase } from './entities/managed-database.entity';
import { QUEUES } from './managed-db.queues';
import { isLockNotAvailable, ManagedDatabasesRepository } from './managed-databases.repository';
import { databaseView } from './managed-databases.views';
import { TenantSecrets } from './tenant-secrets';
import { COMMON_ERRORS, notFound, findOr404 } from '../common/common.errors';
import { MANAGED_DATABASE_ERRORS } from './managed-databases.errors';
import { byDeveloper } from '../events/domain-events';

const DEFAULTS: Record<EngineName, { maxStorageMb: number; maxConnections: number }> = {
  postgres: { maxStorageMb: 1024, maxConnections: 20 },
  redis: { maxStorageMb: 256, maxConnections: 20 },
  mongodb: { maxStorageMb: 1024, maxConnections: 20 },
};

/** Databases: create, read, delete, and the reads that reach the engine (connection, metrics, health, keys). */
@Injectable()
export class DatabasesService {
  private readonly healthInFlight = new Map<string, Promise<HealthReport & { checkedAt: string }>>();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly uow: UnitOfWork,
    private readonly bus: DomainEventBus,
    private readonly repo: ManagedDatabasesRepository,
    private readonly engines: EngineRegistry,
    private readonly secrets: TenantSecrets,
    private readonly jobs: JobsService,
  ) {}

  async list({ workspaceId }: WorkspaceScope) {
    return (await this.repo.listDatabases(workspaceId)).map(databaseView);
  }

  async create({ workspaceId, developer: p }: WorkspaceScope, dto: CreateDatabaseDto, request: RequestMeta) {
    if (!this.engines.get(dto.engine).isAvailable()) {
      throw new DomainError(MANAGED_DATABASE_ERRORS.engine_unavailable, `The ${dto.engine} engine is not available on this service`, {
        details: { engine: dto.engine },
      });
    }
    const dbName = generateDbName(dto.display_name);
    const address = this.engines.publicAddress(dto.engine);
    const row = await this.uow.run(async (tx, events) => {
      const inserted = await this.repo.insertDatabase(tx, workspaceId, {
        displayName: dto.display_name,
        dbName,
        engine: dto.engine,
        username: usernameFor(dbName),
        // The password exists before the engine user does, so a resumed job sets the same one.
        passwordEncrypted: this.secrets.encrypt(generatePassword()),
        host: address.host,
        port: address.port,
        maxStorageMb: dto.max_storage_mb ?? DEFAULTS[dto.engine].maxStorageMb,
        maxConnections: dto.max_connections ?? DEFAULTS[dto.engine].maxConnections,
      });
      await this.jobs.enqueue(tx, QUEUES.provision, { databaseId: inserted.id, workspaceId }, { maxAttempts: QUEUES.provisionAttempts });
      events.emit('managed_database_create', {
        ...byDeveloper(p, workspaceId, { type: 'ManagedDatabase', id: inserted.id }, request),
        metadata: { engine: dto.engine, db_name: dbName },
      });
      return inserted;
    });
    return databaseView(row);
  }

  async get(developerId: string, id: string) {
    return databaseView(await this.find(developerId, id));
  }

  /** 202: the row turns `deleting` now; a job drops the engine objects, then the row. */
  async remove(p: DeveloperPrincipal, id: string, request: RequestMeta) {
    if (!isUuid(id)) throw notFound('database');
    try {
      const row = await this.uow.run(async (tx, events) => {
        // A running backup or restore holds the row; do not leave the request hanging behind it.
        const db = await this.repo.lockDatabaseForDeveloper(tx, p.developerId, id);
        if (!db) throw notFound('database');
        if (db.status === 'deleting') return db;
        await this.repo.setDatabaseStatus(tx, db.workspaceId, db.id, 'deleting', db.error);
        await this.jobs.enqueue(tx, QUEUES.deprovision, { databaseId: db.id, workspaceId: db.workspaceId });
        events.emit('managed_database_delete', {
          ...byDeveloper(p, db.workspaceId, { type: 'ManagedDatabase', id: db.id }, request),
          metadata: { engine: db.engine, db_name: db.dbName },
        });
        return { ...db, status: 'deleting' as const };
      });
      return databaseView(row);
    } catch (err) {
      if (isLockNotAvailable(err)) {
        throw new DomainError(COMMON_ERRORS.conflict, 'A backup or restore of this database is running; retry when it has finished', {
          retryAfterSeconds: 5,
        });
      }
      throw err;
    }
  }

  async connection(p: DeveloperPrincipal, id: string, request: RequestMeta) {
    const db = await this.findAvailable(p.developerId, id);
    const details = this.engines.get(db.engine).connectionDetails(this.secrets.tenant(db));
    await this.bus.publish(
      'managed_database_credentials_read',
      byDeveloper(p, db.workspaceId, { type: 'ManagedDatabase', id: db.id }, request),
    );
    return details;
  }

  async metrics(developerId: string, id: string) {
    const db = await this.findAvailable(developerId, id);
    const figures = await this.engines
      .get(db.engine)
      .metrics(this.secrets.tenant(db))
      .catch((err: Error) => {
        throw engineFailure(err);
      });
    return {
      database_id: db.id,
      engine: db.engine,
      collected_at: new Date().toISOString(),
      ...figures,
      max_storage_bytes: db.maxStorageMb * 1024 * 1024,
      max_connections: db.maxConnections,
    };
  }

  async health(developerId: string, id: string) {
    const db = await this.find(developerId, id);
    if (db.status !== 'available') {
      const checkedAt = new Date().toISOString();
      const check = { name: 'status', ok: false, latency_ms: 0, error: `database is ${db.status}` };
      return { database_id: db.id, status: 'unknown' as const, checked_at: checkedAt, latency_ms: 0, checks: [check] };
    }
    const report = await this.singleFlight(db);
    return {
      database_id: db.id,
      status: report.status,
      checked_at: report.checkedAt,
      latency_ms: report.latency_ms,
      checks: report.checks,
    };
  }

  /**
   * Each check opens a connection as the tenant, which counts against its own
   * connection limit: concurrent health requests for one database share a check
   * instead of opening one connection each.
   */
  private singleFlight(db: ManagedDatabase): Promise<HealthReport & { checkedAt: string }> {
    let pending = this.healthInFlight.get(db.id);
    if (!pending) {
      const checkedAt = new Date().toISOString();
      pending = this.engines
        .get(db.engine)
        .health(this.secrets.tenant(db))
        .then((report) => ({ ...report, checkedAt }))
        .finally(() => this.healthInFlight.delete(db.id));
      this.healthInFlight.set(db.id, pending);
    }
    return pending;
  }

  /** Redis tenants cannot SCAN the shared keyspace; this lists their own keys (decision 0512). */
  async keys(developerId: string, id: string, cursor = '0', count = 100) {
    const db = await this.findAvailable(developerId, id);
    if (db.engine !== 'redis') {
      throw new DomainError(MANAGED_DATABASE_ERRORS.not_supported, 'Key listing exists only for redis databases', {
        details: { engine: db.engine },
      });
    }
    if (!/^\d{1,20}$/.test(cursor)) {
      throw new DomainError(COMMON_ERRORS.validation_failed, 'cursor must be a number', { details: { cursor: ['must be a number'] } });
    }
    return this.engines.redis().listKeys(this.secrets.tenant(db), cursor, count);
  }

  find(developerId: string, id: string): Promise<ManagedDatabase> {
    return findOr404('database', id, (databaseId) => this.repo.findDatabaseForDeveloper(developerId, databaseId));
  }

  async findAvailable(developerId: string, id: string): Promise<ManagedDatabase> {
    const db = await this.find(developerId, id);
    if (db.status !== 'available') {
      throw new DomainError(MANAGED_DATABASE_ERRORS.not_ready, `The database is ${db.status}, not available`, {
        details: { status: db.status },
      });
    }
    return db;
  }
}

/** The engine refused or is unreachable: the database exists but cannot be read now. */
export function engineFailure(err: Error): DomainError {
  if (err instanceof EngineObjectMissingError) {
    return new DomainError(MANAGED_DATABASE_ERRORS.engine_object_missing, err.message);
  }
  return new DomainError(COMMON_ERRORS.service_unavailable, `The database engine did not answer: ${err.message.slice(0, 200)}`, {
    retryAfterSeconds: 5,
  });
}
