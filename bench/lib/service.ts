import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApiClient } from './api-client';
import { freePort, profileArgs, runCommand, ServerProcess } from './processes';
import type { BenchDeveloper } from './types';
import { generateAuditSigningKey } from '../../src/config/dev-secrets';

export interface RunningService {
  server: ServerProcess;
  baseUrl: string;
}

export async function buildService(root: string): Promise<void> {
  await runCommand(process.execPath, [join(root, 'node_modules/@nestjs/cli/bin/nest.js'), 'build'], root);
}

/**
 * Starts `node dist/main.js` as production would run it: full middleware stack, JSON
 * request logs (to a file), migrations at boot against the bench database.
 */
export async function startService(
  root: string,
  databaseUrl: string,
  extraEnv: Record<string, string>,
  cpuProf: boolean,
): Promise<RunningService> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = await ServerProcess.start({
    name: 'service',
    args: [...productionNodeFlags(root), ...profileArgs(root, 'service', cpuProf), join(root, 'dist/main.js')],
    env: { ...productionEnv(port), DATABASE_URL: databaseUrl, ...extraEnv },
    cwd: root,
    readyUrl: `${baseUrl}/health/ready`,
    logFile: join(root, 'bench/results/logs/service.log'),
    timeoutMs: 120_000,
  });
  return { server, baseUrl };
}

/**
 * The Node flags of the build's own `npm run start:prod` (its heap sizing, decision 0123), so that
 * each build is measured as production runs it and an A/B compares those flags too.
 */
export function productionNodeFlags(root: string): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  const command = pkg.scripts?.['start:prod'] ?? '';
  const words = command.split(/\s+/);
  return words.slice(words.indexOf('node') + 1).filter((word) => word.startsWith('--'));
}

/** Throwaway secrets: production refuses to start without them. Instances that must trust each other share one set. */
export function throwawaySecrets(): Record<string, string> {
  return {
    AUTH_JWT_SECRET: randomBytes(48).toString('base64url'),
    SECRETS_ENCRYPTION_KEY: `bench:${randomBytes(32).toString('base64')}`,
    AUDIT_SIGNING_KEYS: generateAuditSigningKey('bench'),
  };
}

/** The environment of a production-like instance on this machine (see .env.example), without its database. */
export function productionEnv(port: number, secrets: Record<string, string> = throwawaySecrets()): Record<string, string> {
  return {
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'info',
    DATABASE_POOL_SIZE: '10',
    REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
    // Throughput runs drive one workspace flat out: a budget that never binds, still spent per request.
    TENANT_RATE_PER_SECOND: '1000000',
    TENANT_MAX_IN_FLIGHT: '0',
    ...secrets,
    DATA_DIR: join(tmpdir(), `identity-bench-${process.pid}-${port}`),
  };
}

/** Signs a developer up, logs in and mints a bearer access token, all through the API. */
export async function createDeveloper(api: ApiClient): Promise<BenchDeveloper> {
  const email = `bench-${Date.now()}-${randomBytes(3).toString('hex')}@example.test`;
  const password = `bench-${randomBytes(12).toString('hex')}`;
  const signup = await api.post<{ id: string }>('/developer/auth/signup/', { body: { email, password, name: 'Bench Developer' } });
  const login = await api.post<{ csrf_token: string }>('/developer/auth/login/', { body: { email, password } });
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const minted = await api.post<{ token: string }>('/developer/tokens/', {
    body: { label: 'bench' },
    headers: { cookie, 'x-csrf-token': login.body.csrf_token },
  });
  const token = minted.body.token;
  return { id: signup.body.id, email, token, authHeaders: { authorization: `Bearer ${token}` } };
}

export async function createWorkspace(api: ApiClient, dev: BenchDeveloper, name: string): Promise<{ id: string; name: string }> {
  const res = await api.post<{ id: string; name: string }>('/e/v1/developer/workspaces/', {
    body: { name },
    headers: dev.authHeaders,
  });
  return { id: res.body.id, name: res.body.name };
}
