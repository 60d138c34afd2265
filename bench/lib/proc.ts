import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { withAdmin } from '../../test/support/databases';

/**
 * CPU and memory of a service as /proc sees it, summed over its process tree: since decision 0061
 * the process a harness starts may be the cluster primary, whose workers do the work.
 */
const CLOCK_TICKS = clockTicks();

function clockTicks(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the parenthesised command name: ppid is field 4, utime and stime 14 and 15.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null; // the process ended
  }
}

/** `pid` and every process descended from it that is alive now. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const fields = statFields(Number(name));
    if (!fields) continue;
    const parent = Number(fields[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(name)]);
  }
  const tree: number[] = [];
  const queue = [pid];
  while (queue.length) {
    const next = queue.shift()!;
    tree.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return tree;
}

/**
 * User + system CPU seconds used so far by the process and its descendants alive now; with `reaped`, also those of
 * the process's children that ended and were waited for (its cutime + cstime: a pre-forking server ends children).
 */
export function treeCpuSeconds(pid: number, opts: { reaped?: boolean } = {}): number {
  return processTree(pid).reduce((sum, p) => {
    const fields = statFields(p);
    if (!fields) return sum;
    const waited = opts.reaped && p === pid ? Number(fields[13]) + Number(fields[14]) : 0;
    return sum + (Number(fields[11]) + Number(fields[12]) + waited) / CLOCK_TICKS;
  }, 0);
}

/** Resident set size in MB of the process and its descendants. */
export function treeRssMb(pid: number): number {
  return processTree(pid).reduce((sum, p) => {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      return sum + Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    } catch {
      return sum;
    }
  }, 0);
}

/** CPU-seconds (user + system) of PostgreSQL's backends serving `db` now, from /proc. */
export async function backendCpuSeconds(db: string): Promise<number> {
  const { rows } = await withAdmin((c) =>
    c.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [db]),
  );
  return rows.reduce((sum, r) => sum + treeCpuSeconds(r.pid), 0);
}

/**
 * Proportional set size in MB of the process and its descendants (`/proc/<pid>/smaps_rollup`): pages shared
 * between the processes (the `node` binary, libraries, copy-on-write) counted once across the tree, not once
 * per process as RSS counts them. The memory the tree costs the machine.
 */
export function treePssMb(pid: number): number {
  return processTree(pid).reduce((sum, p) => {
    try {
      const rollup = readFileSync(`/proc/${p}/smaps_rollup`, 'utf8');
      return sum + Number(/^Pss:\s+(\d+)/m.exec(rollup)?.[1] ?? 0) / 1024;
    } catch {
      return sum;
    }
  }, 0);
}
