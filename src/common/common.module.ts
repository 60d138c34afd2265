import { Global, Inject, Module, OnApplicationShutdown, Optional } from '@nestjs/common';
import { CredentialCache } from './auth/credential-cache';
import { PasswordHasher } from './crypto/password-hasher';
import { REDIS_CLIENT, redisProvider, type RedisClient } from './redis.provider';
import { DomainEventBus } from '../events/domain-event-bus';
import { UnitOfWork } from '../database/unit-of-work';

@Global()
@Module({
  providers: [PasswordHasher, redisProvider, DomainEventBus, UnitOfWork, CredentialCache],
  exports: [PasswordHasher, REDIS_CLIENT, DomainEventBus, UnitOfWork, CredentialCache],
})
export class CommonModule implements OnApplicationShutdown {
  constructor(@Optional() @Inject(REDIS_CLIENT) private readonly redis?: RedisClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis?.quit().catch(() => undefined);
  }
}
