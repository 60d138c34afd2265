import 'reflect-metadata';
import { createApp } from './app.factory';
import { APP_CONFIG, AppConfig, ConfigError, loadConfig } from './config/config';

async function main(): Promise<void> {
  try {
    loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const app = await createApp();
  const config = app.get<AppConfig>(APP_CONFIG);
  await app.listen(config.PORT, config.HOST);
  process.stdout.write(`identity service listening on ${config.PUBLIC_BASE_URL} (API docs at ${config.PUBLIC_BASE_URL}/docs)\n`);
}

void main();
