import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { baseTestEnv } from './app';
import { ensureBuilt } from './build';
import { freePort } from './private-stores';

export interface AppProcess {
  baseUrl: string;
  port: number;
  /** Every line the process wrote (stdout and stderr). */
  logs: string[];
  child: ChildProcess;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const ROOT = join(__dirname, '..', '..');
/**
 * Runs the service as a real separate process (dist/main.js, built first), as an operator would
 * run an instance, and waits until it is live.
 */
export async function spawnApp(env: Record<string, string> = {}, opts: { waitForLive?: boolean; port?: number } = {}): Promise<AppProcess> {
  await ensureBuilt();
  const port = opts.port ?? (await freePort());
  const fullEnv: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...baseTestEnv(port),
    LOG_LEVEL: 'info',
    ...env,
  };
  for (const [key, value] of Object.entries(fullEnv)) if (value === '') delete fullEnv[key];
  const child = spawn(process.execPath, [join(ROOT, 'dist/main.js')], {
    cwd: ROOT,
    env: fullEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const collect = (chunk: Buffer) => logs.push(...chunk.toString().split('\n').filter(Boolean));
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const app: AppProcess = {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    logs,
    child,
    exited,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
  if (opts.waitForLive !== false) {
    // A process that never became live is stopped here: its caller never gets it to stop.
    await waitForLive(app).catch(async (err: unknown) => {
      await app.stop('SIGKILL');
      throw err;
    });
  }
  return app;
}

/**
 * CPU seconds a booting instance may use before it must be live. A boot (embedded PostgreSQL,
 * migrations, Nest's module graph) costs a few CPU seconds whatever else the machine runs, while
 * its wall-clock time grows with the load: the deadline measures the instance's own work, so a
 * loaded machine slows the test down instead of failing it, and a boot that spins fails anyway.
 */
export const BOOT_CPU_BUDGET_S = 60;
/** Only against a process that waits on something forever without using CPU. */
const BOOT_WALL_CEILING_MS = 10 * 60_000;
/**
 * Jest timeout for a hook or test that starts instances: a ceiling against hangs, above the boot's
 * own ceiling, so on a loaded machine the readiness check (CPU budget) decides, not Jest's clock.
 */
export const SPAWN_HOOK_TIMEOUT_MS = BOOT_WALL_CEILING_MS + 60_000;

/** User + system CPU seconds the process has used (Linux /proc), or null where that cannot be read. */
export function cpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may contain spaces) in parentheses; utime and stime are 14 and 15, in clock ticks.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

export async function waitForLive(app: AppProcess, cpuBudgetS = BOOT_CPU_BUDGET_S): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (app.child.exitCode !== null) throw new Error(`app exited with ${app.child.exitCode}:\n${app.logs.slice(-20).join('\n')}`);
    try {
      const res = await fetch(`${app.baseUrl}/health/live`, { signal: AbortSignal.timeout(5000) });
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    const cpu = cpuSeconds(app.child.pid);
    const waited = Date.now() - started;
    if ((cpu ?? waited / 1000) > cpuBudgetS || waited > BOOT_WALL_CEILING_MS) {
      throw new Error(
        `app not live after ${cpu === null ? '' : `${cpu.toFixed(1)} CPU s and `}${waited} ms:\n${app.logs.slice(-20).join('\n')}`,
      );
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
