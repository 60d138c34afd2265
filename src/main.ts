import 'reflect-metadata';
import cluster from 'node:cluster';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { createApp } from './app.factory';
import { bootSummaryRows, bootSummaryText } from './boot-summary';
import { rootLogger } from './common/logging';
import { APP_CONFIG, AppConfig, ConfigError, loadConfig } from './config/config';
import { IdpRuntime } from './saml/idp/idp-runtime';
import { isFirstProcess, superviseWorkers, workerCount } from './workers';

/**
 * A `.env` file in the working directory (or ENV_FILE) fills in variables the environment
 * does not set; the environment wins. Test runs (NODE_ENV=test) never read one, so a
 * developer's .env cannot change what the tests see.
 */
function readEnvFile(): string | undefined {
  if (process.env.NODE_ENV === 'test') return undefined;
  const file = resolve(process.env.ENV_FILE ?? '.env');
  if (!existsSync(file)) return undefined;
  process.loadEnvFile(file);
  return file;
}

async function main(): Promise<void> {
  let given: AppConfig;
  let envFile: string | undefined;
  try {
    envFile = readEnvFile();
    given = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const workers = workerCount(given);
  if (cluster.isPrimary && workers > 1) {
    superviseWorkers(workers, (line) => process.stdout.write(`${line}\n`));
    return;
  }
  const app = await createApp();
  const config = app.get<AppConfig>(APP_CONFIG);
  await app.listen(config.PORT, config.HOST);
  const facts = { config, given, saml: app.get(IdpRuntime).summary, envFile };
  const log = rootLogger(config);
  if (!isFirstProcess()) {
    log.info(`worker ${process.pid} listening on ${config.PUBLIC_BASE_URL}`);
  } else if (config.LOG_FORMAT === 'pretty') {
    // Through the logger, so the block lands after the boot's lines (pino writes asynchronously).
    log.info({ banner: true }, bootSummaryText(facts));
  } else {
    log.info({ summary: Object.fromEntries(bootSummaryRows(facts)) }, `identity service listening on ${config.PUBLIC_BASE_URL}`);
  }
}

void main();
