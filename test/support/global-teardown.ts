import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dropWorkerDatabases } from './databases';
import { deleteRedisKeys, runRedisPrefix, TEST_REDIS_URL } from './redis-keys';

/**
 * Every credential format the service mints, and the test passwords. None may
 * appear in any log line written during the e2e run.
 */
export const SECRET_PATTERNS: [string, RegExp][] = [
  ['developer access token', /dat_[A-Za-z0-9_-]{40,}/],
  ['SCIM token', /scim_[A-Za-z0-9_-]{40,}/],
  ['OAuth client secret', /cs_[A-Za-z0-9_-]{40,}/],
  ['refresh token', /rt_[A-Za-z0-9_-]{40,}/],
  ['JWT', /eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/],
  ['private key', /-----BEGIN [A-Z ]*PRIVATE KEY-----/],
  ['credentials in a URL', /[a-z]+:\/\/[^:/\s"@]+:[^@\s"/]+@/i],
  ['test password', /password-123|correct horse battery|pw-[0-9a-f]{8}-[0-9a-f]{4}/],
];

export function scanLogs(dir: string): { lines: number; findings: string[] } {
  let lines = 0;
  const findings: string[] = [];
  for (const file of readdirSync(dir)) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line) continue;
      lines++;
      for (const [name, pattern] of SECRET_PATTERNS) if (pattern.test(line)) findings.push(`${file}: ${name}: ${line.slice(0, 300)}`);
    }
  }
  return { lines, findings };
}

/** Every key this run's apps wrote (their prefixes all start with the run's), whatever TTL the service gave it. */
async function deleteRunRedisKeys(): Promise<void> {
  const runId = process.env.TEST_REDIS_RUN_ID;
  if (!runId) return;
  const deleted = await deleteRedisKeys(TEST_REDIS_URL, runRedisPrefix(runId)).catch(() => 0);
  process.stdout.write(`\nredis: deleted ${deleted} keys under ${runRedisPrefix(runId)}\n`);
}

export default async function globalTeardown(): Promise<void> {
  await dropWorkerDatabases();
  await deleteRunRedisKeys();
  const dir = process.env.TEST_LOG_DIR;
  if (!dir) return;
  const { lines, findings } = scanLogs(dir);
  process.stdout.write(
    `\nlog scan: ${lines} log lines from the e2e run checked for ${SECRET_PATTERNS.length} secret formats: ${findings.length} found\n`,
  );
  if (findings.length) throw new Error(`secrets found in logs:\n${findings.slice(0, 20).join('\n')}`);
}
