import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { Logger } from '@nestjs/common';

export interface EmbeddedPostgres {
  url: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Zero-config database: PGlite (PostgreSQL compiled to WASM) served on a
 * loopback port so TypeORM's ordinary postgres driver talks to it. The socket
 * server multiplexes onto one backend, so the pool must be max 1.
 */
export async function startEmbeddedPostgres(dataDir: string): Promise<EmbeddedPostgres> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  mkdirSync(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir);
  const port = await freePort();
  const server = new PGLiteSocketServer({ db, port, host: '127.0.0.1' });
  await server.start();
  new Logger('EmbeddedPostgres').log(`embedded PostgreSQL (PGlite) at 127.0.0.1:${port}, data in ${dataDir}`);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}
