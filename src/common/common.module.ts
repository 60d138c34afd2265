import { Inject, Module, OnApplicationShutdown, Optional, type Provider } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../config/config';
import { CredentialCache } from './auth/credential-cache';
import { RequestBudget } from './budget/request-budget';
import { Clock } from './clock';
import { PasswordHasher } from './crypto/password-hasher';
import { SecretBox } from './crypto/secret-box';
import { REDIS_CLIENT, redisProvider, type RedisClient } from './redis.provider';

/** The one secret box of the service (AES-256-GCM under SECRETS_ENCRYPTION_KEY) that every secret at rest is sealed with. */
const secretBoxProvider: Provider = {
  provide: SecretBox,
  useFactory: (config: AppConfig) => new SecretBox(config.SECRETS_ENCRYPTION_KEY!),
  inject: [APP_CONFIG],
};

/**
 * Shared services of the foundation: the clock, password hashing, the secret box, the Redis connection, the
 * credential cache and the request budgets. Not global: a feature that uses one imports this
 * module, so its arrows are written in its own module file. Nest makes one instance per app
 * however many modules import it, so a test that moves the clock moves it for everyone.
 */
@Module({
  providers: [Clock, PasswordHasher, secretBoxProvider, redisProvider, CredentialCache, RequestBudget],
  exports: [Clock, PasswordHasher, SecretBox, REDIS_CLIENT, CredentialCache, RequestBudget],
})
export class CommonModule implements OnApplicationShutdown {
  constructor(@Optional() @Inject(REDIS_CLIENT) private readonly redis?: RedisClient) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis?.quit().catch(() => undefined);
  }
}
