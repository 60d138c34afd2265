import { openSync, readFileSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { sleep } from './processes';

const LOCK = process.env.BENCH_LOCK_FILE ?? '/tmp/identity-bench.lock';

/**
 * One bench run at a time on this machine: two runs (say from two worktrees) would
 * share the 2 cores and each would measure the other. A later run waits its turn.
 */
export async function acquireRunLock(log: (m: string) => void): Promise<() => void> {
  let announced = false;
  for (;;) {
    try {
      const fd = openSync(LOCK, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      const release = () => {
        try {
          if (readFileSync(LOCK, 'utf8') === String(process.pid)) unlinkSync(LOCK);
        } catch {
          // already gone
        }
      };
      process.on('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const holder = Number(safeRead(LOCK));
    if (!holder || !isAlive(holder)) {
      safeUnlink(LOCK);
      continue;
    }
    if (!announced) log(`another bench run (pid ${holder}) holds ${LOCK}; waiting for it to finish`);
    announced = true;
    await sleep(3000);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

function safeUnlink(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // raced with another run
  }
}
