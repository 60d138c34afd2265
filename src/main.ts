import 'reflect-metadata';
import { type INestApplication, Logger } from '@nestjs/common';
import cluster from 'node:cluster';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { bootSummaryRows, bootSummaryText } from './boot-summary';
import { joinClusterMetrics } from './common/cluster-metrics';
import { rootLogger } from './common/logging';
import { APP_CONFIG, AppConfig, ConfigError, configurationReport, loadConfig } from './config/config';
import { withGeneratedSecrets } from './config/dev-secrets';
import { IdpConfigError } from './saml/idp/idp-settings';
import { BOOT_FAILED_EXIT_CODE, isFirstProcess, reportBootFailure, superviseWorkers, workerCount } from './workers';

/**
 * A `.env` file in the working directory (or ENV_FILE) fills in variables the environment
 * does not set; the environment wins. Test runs (NODE_ENV=test) never read one, so a
 * developer's .env cannot change what the tests see.
 */
function readEnvFile(): string | undefined {
  if (process.env.NODE_ENV === 'test') return undefined;
  const file = resolve(process.env.ENV_FILE || '.env');
  if (!existsSync(file)) return undefined;
  process.loadEnvFile(file);
  return file;
}

interface Booted {
  app: INestApplication;
  given: AppConfig;
  envFile: string | undefined;
}

/**
 * Reads the configuration and assembles the application. A configuration problem is the operator's
 * to fix, not a bug: it is printed as a list of problems on stderr, without a stack trace, and the
 * process exits 1 (answers null, as does the primary of several workers). Anything else is rethrown with Nest's boot lines.
 */
async function boot(): Promise<Booted | null> {
  try {
    const envFile = readEnvFile();
    const given = loadConfig();
    // What the app will also do first (idempotent): the secrets production must set, checked before Nest starts.
    withGeneratedSecrets(given);
    const workers = workerCount(given);
    if (cluster.isPrimary && workers > 1) {
      // This process only supervises; the workers boot the application (and report their own problems).
      superviseWorkers(workers, (line) => process.stdout.write(`${line}\n`));
      return null;
    }
    if (cluster.isWorker) joinClusterMetrics();
    // Loaded only by a process that serves: the primary of several workers never holds the application's
    // code and its heap (decision 0621), so the service's memory is its workers'.
    const { createApp } = await import('./app.factory');
    return { app: await createApp(), given, envFile };
  } catch (err) {
    if (!(err instanceof ConfigError || err instanceof IdpConfigError)) {
      Logger.flush();
      throw err;
    }
    const report = configurationReport(err);
    // A worker hands its report to the primary, which prints it once and stops the service (decision 0211):
    // every worker would fail the same way, and restarting them would only loop.
    if (cluster.isWorker) reportBootFailure(report);
    else process.stderr.write(`${report}\n`);
    // Exit once what is pending settles (a log file still opening would throw on an immediate exit);
    // a handle the half-built application left open cannot keep the process alive past a second.
    const code = cluster.isWorker ? BOOT_FAILED_EXIT_CODE : 1;
    process.exitCode = code;
    setTimeout(() => process.exit(code), 1000).unref();
    return null;
  }
}

async function main(): Promise<void> {
  const booted = await boot();
  if (!booted) return;
  const { app, given, envFile } = booted;
  const config = app.get<AppConfig>(APP_CONFIG);
  await app.listen(config.PORT, config.HOST);
  const { IdpRuntime } = await import('./saml/idp/idp-runtime');
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
