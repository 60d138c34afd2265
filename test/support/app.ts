import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { createApp } from '../../src/app.factory';
import { APP_CONFIG, AppConfig } from '../../src/config/config';
import { generateAuditSigningKey } from '../../src/config/dev-secrets';
import { databaseUrl, workerDatabaseName } from './databases';
import { TEST_REDIS_URL, testRedisPrefix } from './redis-keys';

export interface TestApp {
  app: INestApplication;
  /** Supertest bound to the running server. */
  http: () => ReturnType<typeof request>;
  dataSource: DataSource;
  config: AppConfig;
  baseUrl: string;
  get<T>(token: unknown): T;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Environment every test app starts from; a test overrides what it is about. */
export function baseTestEnv(port: number): Record<string, string> {
  return {
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    DATABASE_URL: databaseUrl(workerDatabaseName()),
    DATABASE_POOL_SIZE: '5',
    REDIS_URL: TEST_REDIS_URL,
    REDIS_KEY_PREFIX: testRedisPrefix(),
    AUTH_JWT_SECRET: randomBytes(32).toString('base64url'),
    SECRETS_ENCRYPTION_KEY: `test:${randomBytes(32).toString('base64')}`,
    // Production requires it like the other secrets; tests that run as production find it here.
    AUDIT_SIGNING_KEYS: generateAuditSigningKey('test'),
    DATA_DIR: mkdtempSync(join(tmpdir(), 'idsvc-test-')),
    // Logs go to files that the global teardown scans for leaked secrets (TEST_LOG_LEVEL=… prints them instead).
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? (process.env.TEST_LOG_DIR ? 'info' : 'silent'),
    ...(process.env.TEST_LOG_DIR && !process.env.TEST_LOG_LEVEL
      ? { LOG_FILE: join(process.env.TEST_LOG_DIR, `worker-${process.env.JEST_WORKER_ID ?? '1'}-${process.pid}.log`) }
      : {}),
    JOBS_POLL_INTERVAL_MS: '50',
    RATE_LIMIT_AUTH_PER_MINUTE: '100000',
    RATE_LIMIT_ACCOUNT_PER_MINUTE: '100000',
    // Suites drive one workspace hard; the budget's own tests turn it back on.
    TENANT_RATE_PER_SECOND: '0',
    TENANT_MAX_IN_FLIGHT: '0',
    // A spawned instance is one process unless a test is about workers (tests kill and signal that process).
    WEB_CONCURRENCY: '1',
  };
}

/**
 * Boots the real application (app.factory.ts) on a loopback port against this
 * worker's fresh database. Unset a variable by passing it as ''. `{port}` in a value
 * becomes the chosen port (PUBLIC_BASE_URL: 'http://localhost:{port}' for WebAuthn,
 * whose relying-party id cannot be an IP address).
 */
export async function createTestApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const port = await freePort();
  const withPort = Object.fromEntries(Object.entries(overrides).map(([k, v]) => [k, v.replaceAll('{port}', String(port))]));
  // In-process apps run from the TypeScript sources, where a SAML signing thread (decision 1026) would load the
  // TypeScript compiler for itself: one to two seconds of CPU per app. They sign on the event loop unless a test asks
  // for threads (SAML_SIGNING_THREADS in its overrides); spawned instances run the build with the default.
  const env = { ...baseTestEnv(port), SAML_SIGNING_THREADS: '0', ...withPort };
  const saved = { ...process.env };
  Object.assign(process.env, env);
  for (const [key, value] of Object.entries(env)) if (value === '') delete process.env[key];
  let app: INestApplication;
  try {
    app = await createApp();
    await app.listen(port, '127.0.0.1');
  } finally {
    process.env = saved;
  }
  const server = app.getHttpServer();
  return {
    app,
    http: () => request(server),
    dataSource: app.get(DataSource),
    config: app.get<AppConfig>(APP_CONFIG),
    baseUrl: `http://127.0.0.1:${port}`,
    get: <T>(token: unknown) => app.get<T>(token as never),
    close: () => app.close(),
  };
}
