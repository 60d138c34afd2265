import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function postgresBin(tool: string): string {
  const root = '/usr/lib/postgresql';
  const version = readdirSync(root).sort().reverse()[0];
  return join(root, version, 'bin', tool);
}

/** PostgreSQL refuses to run as root; on the dev/CI machines we are root, so run its tools as `postgres`. */
function asPostgres(tool: string, args: string[]): string {
  const asRoot = process.getuid?.() === 0;
  const [cmd, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', postgresBin(tool), ...args]] : [postgresBin(tool), args];
  return execFileSync(cmd, argv, { stdio: 'pipe', timeout: 60000 }).toString();
}

export interface PrivatePostgres {
  url: string;
  start(): void;
  /** mode 'immediate' is a crash-like stop (no checkpoint); 'fast' disconnects clients cleanly. */
  stop(mode?: 'fast' | 'immediate'): void;
  destroy(): void;
}

/**
 * A throwaway PostgreSQL cluster on its own port, so fault tests can stop and
 * restart "the database" without touching the machine's shared server.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = mkdtempSync(join(tmpdir(), 'idsvc-pg-'));
  chmodSync(dir, 0o700);
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  asPostgres('initdb', ['-D', dir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const pg: PrivatePostgres = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => void asPostgres('pg_ctl', ['-D', dir, '-o', options, '-l', join(dir, 'server.log'), '-w', 'start']),
    stop: (mode = 'fast') => void asPostgres('pg_ctl', ['-D', dir, '-m', mode, '-w', 'stop']),
    destroy: () => {
      if (existsSync(join(dir, 'postmaster.pid'))) pg.stop('immediate');
      execFileSync('rm', ['-rf', dir]);
    },
  };
  pg.start();
  return pg;
}

export interface PrivateRedis {
  url: string;
  start(): Promise<void>;
  stop(): void;
}

/** A throwaway redis-server on its own port (nothing persisted). */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ReturnType<typeof spawn> | undefined;
  const redis: PrivateRedis = {
    url: `redis://127.0.0.1:${port}`,
    start: async () => {
      child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
        stdio: 'ignore',
      });
      for (let i = 0; i < 50; i++) {
        try {
          execFileSync('redis-cli', ['-p', String(port), 'ping'], { stdio: 'pipe' });
          return;
        } catch {
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      throw new Error('private redis did not start');
    },
    stop: () => {
      child?.kill('SIGKILL');
      child = undefined;
    },
  };
  await redis.start();
  return redis;
}
