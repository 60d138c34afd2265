import { availableParallelism } from 'node:os';

/** Set by the primary for each worker it forks (src/workers.ts): how many processes share this machine. */
export const WORKER_COUNT_ENV = 'WORKER_COUNT';

/**
 * The cores this process may keep busy with CPU-bound work on libuv's threads (argon2id): the
 * machine's cores divided among the workers that share them, at least one. Several workers each
 * running one hash per core would put more hashes than cores on the CPU, and memory-hard hashes that
 * share a core evict each other's memory from its caches (the sign-in flood measured 70 % of the argon2
 * ceiling that way, decision 0061).
 */
export function coresForThisProcess(): number {
  const workers = Math.max(1, Number(process.env[WORKER_COUNT_ENV]) || 1);
  return Math.max(1, Math.floor(availableParallelism() / workers));
}
