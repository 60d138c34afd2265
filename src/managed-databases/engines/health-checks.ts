import type { HealthCheck, HealthReport } from './database-engine';

/** Milliseconds since `start` with 0.1 ms precision. */
export function elapsedMs(start: bigint): number {
  return Math.round(Number(process.hrtime.bigint() - start) / 1e5) / 10;
}

/** Runs one health check, timing it and turning a throw into `ok: false`. */
export async function timedCheck(name: string, fn: () => Promise<void>): Promise<HealthCheck> {
  const start = process.hrtime.bigint();
  try {
    await fn();
    return { name, ok: true, latency_ms: elapsedMs(start) };
  } catch (err) {
    return { name, ok: false, latency_ms: elapsedMs(start), error: (err as Error).message.slice(0, 300) };
  }
}

/**
 * Runs checks in order and stops at the first failure (no point querying after a
 * failed login). Healthy only when every check passed.
 */
export async function runChecks(steps: Array<[string, () => Promise<void>]>): Promise<HealthReport> {
  const start = process.hrtime.bigint();
  const checks: HealthCheck[] = [];
  for (const [name, fn] of steps) {
    const check = await timedCheck(name, fn);
    checks.push(check);
    if (!check.ok) break;
  }
  const healthy = checks.length === steps.length && checks.every((c) => c.ok);
  return { status: healthy ? 'healthy' : 'unhealthy', latency_ms: elapsedMs(start), checks };
}
