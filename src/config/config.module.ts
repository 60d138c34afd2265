import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, loadConfig } from './config';
import { withGeneratedSecrets } from './dev-secrets';

/** Config is read from the environment once, at module creation. */
@Global()
@Module({
  providers: [{ provide: APP_CONFIG, useFactory: () => withGeneratedSecrets(loadConfig()) }],
  exports: [APP_CONFIG],
})
export class ConfigModule {}
