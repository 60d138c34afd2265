import { ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { treeCpuSeconds, treePssMb, treeRssMb } from './proc';

export interface StartOptions {
  name: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  /** Polled until it answers 2xx. */
  readyUrl: string;
  /** Server stdout+stderr go here: a file, so a busy load generator never back-pressures the server's logger. */
  logFile: string;
  timeoutMs?: number;
}

const running = new Set<ChildProcess>();
// A crashed or interrupted run must not leave servers holding ports and pool slots.
process.on('exit', () => running.forEach((c) => c.kill('SIGKILL')));
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => process.exit(130));
}

/** A server started as a child `node` process on a loopback port. */
export class ServerProcess {
  private exited = false;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
    readonly logFile: string,
  ) {
    child.on('exit', () => {
      this.exited = true;
      running.delete(child);
    });
  }

  static async start(opts: StartOptions): Promise<ServerProcess> {
    mkdirSync(dirname(opts.logFile), { recursive: true });
    const fd = openSync(opts.logFile, 'w');
    const child = spawn(process.execPath, opts.args, {
      cwd: opts.cwd,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        // e.g. a preload that samples memory, or V8 flags under study; never set by the harness itself.
        ...(process.env.BENCH_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_NODE_OPTIONS } : {}),
        ...opts.env,
      },
      stdio: ['ignore', fd, fd],
    });
    closeSync(fd);
    running.add(child);
    const server = new ServerProcess(opts.name, child, opts.logFile);
    await server.waitReady(opts.readyUrl, opts.timeoutMs ?? 90_000);
    return server;
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  /** Current resident set size in MB of the service's processes (the primary and its workers), from /proc. */
  rssMb(): number {
    return treeRssMb(this.pid);
  }

  /** User + system CPU seconds the service's processes (all their threads) have used so far, from /proc. */
  cpuSeconds(): number {
    return treeCpuSeconds(this.pid);
  }

  /** Current proportional set size in MB of the service's processes (pages they share counted once), from /proc. */
  pssMb(): number {
    return treePssMb(this.pid);
  }

  /** Samples RSS every 250 ms until the returned function is called; it returns the peak. */
  sampleRss(): () => number {
    return this.samplePeak(() => this.rssMb(), 250);
  }

  /** Samples PSS every second (smaps_rollup walks every mapping) until the returned function is called; it returns the peak. */
  samplePss(): () => number {
    return this.samplePeak(() => this.pssMb(), 1000);
  }

  private samplePeak(read: () => number, everyMs: number): () => number {
    let peak = read();
    const timer = setInterval(() => {
      if (!this.exited) peak = Math.max(peak, read());
    }, everyMs);
    return () => {
      clearInterval(timer);
      if (!this.exited) peak = Math.max(peak, read());
      return peak;
    };
  }

  async stop(): Promise<void> {
    if (this.exited) return;
    const done = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    const killer = setTimeout(() => this.child.kill('SIGKILL'), 10_000);
    await done;
    clearTimeout(killer);
  }

  private async waitReady(url: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (this.exited) throw new Error(`${this.name} exited before it was ready:\n${this.logTail()}`);
      try {
        const res = await fetch(url);
        await res.arrayBuffer();
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await sleep(200);
    }
    await this.stop();
    throw new Error(`${this.name} was not ready at ${url} within ${timeoutMs} ms:\n${this.logTail()}`);
  }

  logTail(lines = 30): string {
    try {
      return readFileSync(this.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
    } catch {
      return '(no log)';
    }
  }
}

/** A port the OS says is free on loopback right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Runs a command to completion with inherited output; throws on a non-zero exit. */
export function runCommand(command: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))));
  });
}

/** Node flags that write a V8 CPU profile of the whole process life to bench/results/profiles/. */
export function profileArgs(root: string, name: string, enabled: boolean): string[] {
  if (!enabled) return [];
  const stamp = new Date().toISOString().replace(/[-:]/g, '').slice(0, 15);
  // One folder per server, with Node's default file names (they carry the pid): a service's cluster workers
  // inherit these flags, and one file name would leave only the last process's profile.
  return ['--cpu-prof', `--cpu-prof-dir=${join(root, 'bench/results/profiles', `${name}-${stamp}`)}`];
}
