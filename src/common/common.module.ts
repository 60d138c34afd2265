import { Global, Inject, Module, OnApplicationShutdown, Optional } from '@nestjs/common';
import { CredentialCache } from './auth/credential-cache';
import { RequestBudget } from './budget/request-budget';
import { PasswordHasher } from './crypto/password-hasher';
import { REDIS_CLIENT, redisProvider, type RedisClient } from './redis.provider';
import { DomainEventBus } from '../events/domain-event-bus';
import { UnitOfWork } from '../database/unit-of-work';

@Global()
@Module({
  providers: [PasswordHasher, redisProvider, DomainEventBus, UnitOfWork, CredentialCache, RequestBudget],
  exports: [PasswordHasher, REDIS_CLIENT, DomainEventBus, UnitOfWork, CredentialCache, RequestBudget],
})
export class CommonModule implements OnApplicationShutdown {
  constructor(@Optional() @Inject(REDIS_CLIENT) private readonly redis?: RedisClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis?.quit().catch(() => undefined);
  }
}
