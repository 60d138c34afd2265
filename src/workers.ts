import cluster, { Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { aggregateWorkerMetrics } from './common/cluster-metrics';
import { WORKER_COUNT_ENV } from './common/cores';
import type { AppConfig } from './config/config';

/**
 * How many processes serve the port (decision 0061): WEB_CONCURRENCY when set, else one per core, less
 * the one core PostgreSQL needs when it runs on this host and serves every request from the same cores
 * (decision 0621): on two cores, one process. The zero-config embedded database lives inside its process,
 * so it keeps one whatever is asked.
 */
export function workerCount(config: Pick<AppConfig, 'DATABASE_URL' | 'WEB_CONCURRENCY'>, cores = availableParallelism()): number {
  if (!config.DATABASE_URL) return 1;
  if (config.WEB_CONCURRENCY) return config.WEB_CONCURRENCY;
  return databaseOnThisHost(config.DATABASE_URL) ? Math.max(1, cores - 1) : cores;
}

/** A loopback host or a Unix socket (no host, or `?host=/path`). */
function databaseOnThisHost(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const host = parsed.searchParams.get('host') ?? parsed.hostname;
  return host === '' || host.startsWith('/') || host === 'localhost' || host === '[::1]' || /^127\./.test(host);
}

/**
 * The exit code of a worker whose configuration cannot start the service (sysexits' EX_CONFIG). Every
 * worker reads the same configuration, so the primary stops the service instead of replacing it.
 */
export const BOOT_FAILED_EXIT_CODE = 78;
const BOOT_FAILED_MESSAGE = 'identity-service:boot-failed';

interface BootFailedMessage {
  type: typeof BOOT_FAILED_MESSAGE;
  report: string;
}

function isBootFailed(message: unknown): message is BootFailedMessage {
  return (message as BootFailedMessage | null)?.type === BOOT_FAILED_MESSAGE && typeof (message as BootFailedMessage).report === 'string';
}

/** In a worker: hands the configuration report to the primary, which prints the first one it gets. */
export function reportBootFailure(report: string): void {
  process.send?.({ type: BOOT_FAILED_MESSAGE, report } satisfies BootFailedMessage);
}

const RESTART_DELAY_MS = 1000;
/** A worker that dies this soon after starting, this many times in a row, means the boot itself fails. */
const EARLY_DEATH_MS = 10_000;
const EARLY_DEATHS_TO_GIVE_UP = 5;

/**
 * The primary process: forks the workers (they share the listening socket through Node's cluster
 * module), replaces one that dies, and on SIGTERM/SIGINT stops them all and exits when they have.
 * Everything that must happen once (migrations, the audit sealer, job draining) is already safe
 * with several instances: each worker is an instance.
 */
export function superviseWorkers(count: number, write: (line: string) => void): void {
  let stopping = false;
  let earlyDeaths = 0;
  // Each worker holds a slot (its WORKER_INDEX): a replacement takes the slot of the worker it replaces,
  // so index 0 (the process that prints the boot summary) always exists once.
  const slots = new Map<number, { index: number; startedAt: number }>();
  const fork = (index: number): Worker => {
    const worker = cluster.fork({ WORKER_INDEX: String(index), [WORKER_COUNT_ENV]: String(count) });
    slots.set(worker.id, { index, startedAt: Date.now() });
    return worker;
  };
  /** Set once a worker could not start for its configuration: the service stops and exits 1. */
  let bootFailure: string | null = null;
  const failBoot = (report: string) => {
    if (bootFailure !== null) return;
    bootFailure = report;
    process.stderr.write(`${report}\n`);
    stop('SIGTERM');
  };
  cluster.on('message', (_worker, message) => {
    if (isBootFailed(message)) failBoot(message.report);
  });
  cluster.on('exit', (worker, code, signal) => {
    const slot = slots.get(worker.id) ?? { index: 0, startedAt: 0 };
    const lived = Date.now() - slot.startedAt;
    slots.delete(worker.id);
    if (code === BOOT_FAILED_EXIT_CODE) failBoot(`worker ${worker.process.pid} could not start: its configuration was refused`);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(bootFailure === null ? 0 : 1);
      return;
    }
    earlyDeaths = lived < EARLY_DEATH_MS ? earlyDeaths + 1 : 0;
    if (earlyDeaths >= EARLY_DEATHS_TO_GIVE_UP) {
      write(`worker ${worker.process.pid} exited (${signal ?? code}); ${earlyDeaths} workers died while starting: giving up`);
      process.exit(1);
    }
    write(`worker ${worker.process.pid} exited (${signal ?? code}); starting a replacement`);
    // Not unref'd: when every worker has died, this timer is what keeps the primary alive to replace them.
    setTimeout(() => {
      if (!stopping) fork(slot.index);
    }, RESTART_DELAY_MS);
  });
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(bootFailure === null ? 0 : 1);
  };
  aggregateWorkerMetrics();
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  for (let i = 0; i < count; i++) fork(i);
  write(`started ${count} workers (WEB_CONCURRENCY; pid ${process.pid} supervises)`);
}

/** Whether this process is the one that prints the boot summary: the only process, or the first worker. */
export function isFirstProcess(): boolean {
  return cluster.isPrimary || process.env.WORKER_INDEX === '0';
}
