import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './private-stores';

export const PGBOUNCER_BIN = process.env.PGBOUNCER_BIN ?? '/usr/sbin/pgbouncer';

export interface PgBouncer {
  /** `url` with its host and port replaced by the pooler's. */
  urlFor(directUrl: string): string;
  port: number;
  /** The pgbouncer process's own pid (its pidfile), e.g. to read its CPU time from /proc. */
  pid(): number;
  /** The pooler's log so far (connections, errors), for failure messages. */
  log(): string;
  stop(): Promise<void>;
}

/**
 * Debian's PgBouncer (1.18 on Debian 12) in transaction mode on a free loopback port, in front
 * of the PostgreSQL server at `upstream` (host:port): every database name is forwarded, clients
 * log in as any user and the pooler connects as `user` (trust auth on the dev and CI machines).
 * PgBouncer refuses to run as root: as root it runs as `postgres`, like the private clusters.
 */
export async function startPgBouncer(upstream: { host: string; port: number; user: string }, poolSize = 20): Promise<PgBouncer> {
  if (!existsSync(PGBOUNCER_BIN)) {
    throw new Error(`no pgbouncer at ${PGBOUNCER_BIN}: apt-get install pgbouncer (.ci/run does) or set PGBOUNCER_BIN`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'idsvc-pgbouncer-'));
  const port = await freePort();
  const ini = join(dir, 'pgbouncer.ini');
  writeFileSync(
    ini,
    [
      '[databases]',
      `* = host=${upstream.host} port=${upstream.port} user=${upstream.user}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = any',
      'pool_mode = transaction',
      `default_pool_size = ${poolSize}`,
      'max_client_conn = 500',
      // What an operator sets instead of the per-connection timeouts a pooler refuses (docs/scaling.md).
      'query_timeout = 60',
      'idle_transaction_timeout = 60',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
      `pidfile = ${join(dir, 'pgbouncer.pid')}`,
      '',
    ].join('\n'),
  );
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    chmodSync(dir, 0o755);
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
    chownSync(ini, uid, gid);
  }
  const [cmd, args] = asRoot ? ['runuser', ['-u', 'postgres', '--', PGBOUNCER_BIN, ini]] : [PGBOUNCER_BIN, [ini]];
  const child: ChildProcess = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  child.stdout!.on('data', (c: Buffer) => output.push(c.toString()));
  child.stderr!.on('data', (c: Buffer) => output.push(c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const log = () => {
    try {
      return readFileSync(join(dir, 'pgbouncer.log'), 'utf8');
    } catch {
      return output.join('');
    }
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  while (!(await accepts(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      const why = `${output.join('')}\n${log()}`;
      await stop();
      throw new Error(`pgbouncer did not start:\n${why}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    log,
    stop,
    pid: () => Number(readFileSync(join(dir, 'pgbouncer.pid'), 'utf8').trim()),
    urlFor: (directUrl: string) => {
      const url = new URL(directUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
