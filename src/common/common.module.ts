import { Inject, Module, OnApplicationShutdown, Optional } from '@nestjs/common';
import { CredentialCache } from './auth/credential-cache';
import { RequestBudget } from './budget/request-budget';
import { Clock } from './clock';
import { PasswordHasher } from './crypto/password-hasher';
import { REDIS_CLIENT, redisProvider, type RedisClient } from './redis.provider';

/**
 * Shared services of the foundation: the clock, password hashing, the Redis connection, the
 * credential cache and the request budgets. Not global: a feature that uses one imports this
 * module, so its arrows are written in its own module file. Nest makes one instance per app
 * however many modules import it, so a test that moves the clock moves it for everyone.
 */
@Module({
  providers: [Clock, PasswordHasher, redisProvider, CredentialCache, RequestBudget],
  exports: [Clock, PasswordHasher, REDIS_CLIENT, CredentialCache, RequestBudget],
})
export class CommonModule implements OnApplicationShutdown {
  constructor(@Optional() @Inject(REDIS_CLIENT) private readonly redis?: RedisClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis?.quit().catch(() => undefined);
  }
}
