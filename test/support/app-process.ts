import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { baseTestEnv } from './app';
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
 * Runs the service as a real separate process (src/main.ts through ts-node,
 * transpile-only), as an operator would run an instance, and waits until it is live.
 */
export async function spawnApp(env: Record<string, string> = {}, opts: { waitForLive?: boolean } = {}): Promise<AppProcess> {
  const port = await freePort();
  const fullEnv: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...baseTestEnv(port),
    LOG_LEVEL: 'info',
    ...env,
    TS_NODE_TRANSPILE_ONLY: 'true',
  };
  for (const [key, value] of Object.entries(fullEnv)) if (value === '') delete fullEnv[key];
  const child = spawn(process.execPath, ['-r', 'ts-node/register', join(ROOT, 'src/main.ts')], {
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

export async function waitForLive(app: AppProcess, timeoutMs = 90000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (app.child.exitCode !== null) throw new Error(`app exited with ${app.child.exitCode}:\n${app.logs.slice(-20).join('\n')}`);
    try {
      const res = await fetch(`${app.baseUrl}/health/live`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`app not live after ${timeoutMs} ms:\n${app.logs.slice(-20).join('\n')}`);
}
