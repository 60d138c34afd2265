import { Inject, Injectable, OnApplicationShutdown } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config';
import type { DatabaseEngine, EngineName } from './engines/database-engine';
import { MongodbEngine } from './engines/mongodb/mongodb.engine';
import { PostgresEngine } from './engines/postgres/postgres.engine';
import { RedisEngine } from './engines/redis/redis.engine';

/** One engine instance per kind, configured from the environment; closed with the app. */
@Injectable()
export class EngineRegistry implements OnApplicationShutdown {
  private readonly engines: Record<EngineName, DatabaseEngine>;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.engines = {
      postgres: new PostgresEngine({
        adminUrl: config.MANAGED_POSTGRES_ADMIN_URL,
        publicHost: config.MANAGED_POSTGRES_PUBLIC_HOST,
        publicPort: config.MANAGED_POSTGRES_PUBLIC_PORT,
        sslMode: config.MANAGED_POSTGRES_SSL_MODE,
      }),
      redis: new RedisEngine({
        adminUrl: config.MANAGED_REDIS_ADMIN_URL,
        publicHost: config.MANAGED_REDIS_PUBLIC_HOST,
        publicPort: config.MANAGED_REDIS_PUBLIC_PORT,
      }),
      mongodb: new MongodbEngine({
        adminUrl: config.MANAGED_MONGODB_ADMIN_URL,
        publicHost: config.MANAGED_MONGODB_PUBLIC_HOST,
        publicPort: config.MANAGED_MONGODB_PUBLIC_PORT,
      }),
    };
  }

  get(engine: EngineName): DatabaseEngine {
    return this.engines[engine];
  }

  /** Where tenants reach the engine (MANAGED_<ENGINE>_PUBLIC_HOST/_PORT). */
  publicAddress(engine: EngineName): { host: string; port: number } {
    const c = this.config;
    return {
      postgres: { host: c.MANAGED_POSTGRES_PUBLIC_HOST, port: c.MANAGED_POSTGRES_PUBLIC_PORT },
      redis: { host: c.MANAGED_REDIS_PUBLIC_HOST, port: c.MANAGED_REDIS_PUBLIC_PORT },
      mongodb: { host: c.MANAGED_MONGODB_PUBLIC_HOST, port: c.MANAGED_MONGODB_PUBLIC_PORT },
    }[engine];
  }

  redis(): RedisEngine {
    return this.engines.redis as RedisEngine;
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all(Object.values(this.engines).map((e) => e.close().catch(() => undefined)));
  }
}
