import Redis, { type RedisOptions } from 'ioredis';
import { describeFile, writeAtomically } from '../backup-file';
import {
  type ConnectionDetails,
  type DatabaseEngine,
  type EngineMetrics,
  type HealthReport,
  type TenantDatabase,
  type TenantRef,
} from '../database-engine';
import { AdminConnectedEngine } from '../admin-connected-engine';
import { runChecks } from '../health-checks';
import { keyPrefix, setUserArgs } from './redis-acl';
import { DumpWriter, readDump } from './redis-dump-file';

const SCAN_COUNT = 500;
/** Bounds one page's work on a large shared keyspace; the caller pages on with next_cursor. */
const LIST_KEYS_MAX_SCANS = 50;

/**
 * Tenants share one Redis (db 0): each gets an ACL user confined to `<db_name>:*`
 * keys and channels. Everything here touches only that prefix and that user, never
 * anything else on the server.
 */
export class RedisEngine extends AdminConnectedEngine<Redis> implements DatabaseEngine {
  readonly engine = 'redis' as const;

  async provision(db: TenantDatabase): Promise<void> {
    // `reset` + the full rule list: running it again yields the same user.
    await this.admin().call('ACL', 'SETUSER', ...setUserArgs(db.username, db.dbName, db.password));
  }

  async deprovision(db: TenantRef): Promise<void> {
    // DELUSER also disconnects the user's open connections; both steps are no-ops on a re-run.
    await this.admin().call('ACL', 'DELUSER', db.username);
    await this.eachKeyPage(db, async (keys) => {
      await this.admin().unlink(...keys);
    });
  }

  connectionDetails(db: TenantDatabase): ConnectionDetails {
    const { publicHost: host, publicPort: port } = this.settings;
    const tls = this.settings.adminUrl?.startsWith('rediss:') ?? false;
    return {
      ...this.detailsFor(db, {
        database: String(this.dbIndex()),
        connection_string: `${tls ? 'rediss' : 'redis'}://${db.username}:${db.password}@${host}:${port}/${this.dbIndex()}`,
        ssl_mode: tls ? 'require' : 'disable',
      }),
      key_prefix: keyPrefix(db.dbName),
    };
  }

  async backup(db: TenantRef, file: string) {
    const admin = this.admin();
    return writeAtomically(file, async (tmp) => {
      const out = new DumpWriter(tmp, keyPrefix(db.dbName));
      try {
        await this.eachKeyPage(db, async (keys) => {
          const pipe = admin.pipeline();
          for (const key of keys) pipe.dumpBuffer(key).pttl(key);
          const replies = (await pipe.exec()) ?? [];
          for (let i = 0; i < keys.length; i++) {
            const payload = replies[2 * i]?.[1] as Buffer | null;
            const ttl = Number(replies[2 * i + 1]?.[1]);
            if (!payload || ttl === -2) continue; // expired between SCAN and DUMP
            await out.write({ key: keys[i], payload, ttlMs: ttl > 0 ? ttl : 0 });
          }
        });
      } finally {
        await out.close();
      }
    });
  }

  /** Makes the tenant's keyspace equal to the backup: keys restored, keys made since removed. */
  async restore(db: TenantRef, file: string): Promise<void> {
    await describeFile(file);
    const admin = this.admin();
    const restored = new Set<string>();
    let pipe = admin.pipeline();
    for await (const entry of readDump(file, keyPrefix(db.dbName))) {
      pipe.restore(entry.key, entry.ttlMs, entry.payload, 'REPLACE');
      restored.add(entry.key.toString('base64'));
      if (pipe.length >= SCAN_COUNT) {
        await execOrThrow(pipe);
        pipe = admin.pipeline();
      }
    }
    await execOrThrow(pipe);
    await this.eachKeyPage(db, async (keys) => {
      const extra = keys.filter((k) => !restored.has(k.toString('base64')));
      if (extra.length) await admin.unlink(...extra);
    });
  }

  async metrics(db: TenantRef): Promise<EngineMetrics> {
    const admin = this.admin();
    let keys = 0;
    let memory = 0;
    await this.eachKeyPage(db, async (page) => {
      const pipe = admin.pipeline();
      for (const key of page) pipe.call('MEMORY', 'USAGE', key);
      for (const [, bytes] of (await pipe.exec()) ?? []) memory += Number(bytes) || 0;
      keys += page.length;
    });
    const clients = String(await admin.call('CLIENT', 'LIST'))
      .split('\n')
      .filter((line) => line.includes(` user=${db.username} `)).length;
    return { storage_bytes: memory, connections: clients, keys, memory_bytes: memory };
  }

  async health(db: TenantDatabase): Promise<HealthReport> {
    if (!this.isAvailable()) return { status: 'unknown', latency_ms: 0, checks: [] };
    const admin = new URL(this.settings.adminUrl!);
    let lastError: Error | undefined;
    const tenant = new Redis({
      ...baseOptions(admin),
      db: this.dbIndex(),
      username: db.username,
      password: db.password,
      lazyConnect: true,
      enableReadyCheck: false,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      connectTimeout: 3000,
      // disconnect() after a refused login arms a timer for a socket that is already closed; keep it short.
      disconnectTimeout: 100,
    });
    // ioredis reports a refused AUTH as an 'error' event and rejects connect() with a bland message.
    tenant.on('error', (err: Error) => (lastError = err));
    try {
      const surfaced = (err: Error) => {
        throw lastError ?? err;
      };
      return await runChecks([
        // AUTH is pipelined behind the connect, so only the first reply proves the login.
        [
          'connect',
          async () =>
            void (await tenant
              .connect()
              .then(() => tenant.ping())
              .catch(surfaced)),
        ],
        ['ping', async () => void (await tenant.ping().catch(surfaced))],
      ]);
    } finally {
      if (tenant.status === 'ready') await tenant.quit().catch(() => tenant.disconnect());
      else if (tenant.status !== 'end') tenant.disconnect();
    }
  }

  /** The tenant's own keys, a page at a time (Redis SCAN semantics: cursor "0" ends). */
  /**
   * One SCAN call may match nothing while the tenant's keys sit further along the keyspace (the other
   * tenants' keys fill its pages), so a page keeps scanning until it holds `count` keys, the scan ends,
   * or LIST_KEYS_MAX_SCANS calls have run: an empty first page then means the tenant has no keys.
   */
  async listKeys(db: TenantRef, cursor: string, count: number): Promise<{ keys: string[]; next_cursor: string | null }> {
    const match = `${keyPrefix(db.dbName)}*`;
    const keys: string[] = [];
    let next = cursor;
    for (let scans = 0; scans < LIST_KEYS_MAX_SCANS && keys.length < count; scans++) {
      const [after, found] = await this.admin().scan(next, 'MATCH', match, 'COUNT', Math.max(count, 100));
      keys.push(...found);
      next = after;
      if (next === '0') break;
    }
    return { keys, next_cursor: next === '0' ? null : next };
  }

  protected openAdmin(adminUrl: string): Redis {
    return new Redis(adminUrl, { lazyConnect: false, maxRetriesPerRequest: 2 });
  }

  protected async closeAdmin(client: Redis): Promise<void> {
    await client.quit().catch(() => client.disconnect());
  }

  /** Tenants live in the database the admin URL names (default 0); SELECT is denied to them. */
  private dbIndex(): number {
    const path = new URL(this.settings.adminUrl ?? 'redis://x/0').pathname.replace('/', '');
    return Number(path || 0) || 0;
  }

  private async eachKeyPage(db: TenantRef, fn: (keys: Buffer[]) => Promise<void>): Promise<void> {
    const match = `${keyPrefix(db.dbName)}*`;
    let cursor = '0';
    do {
      const [next, keys] = await this.admin().scanBuffer(cursor, 'MATCH', match, 'COUNT', SCAN_COUNT);
      cursor = String(next);
      if (keys.length) await fn(keys);
    } while (cursor !== '0');
  }
}

function baseOptions(url: URL): RedisOptions {
  return {
    host: url.hostname,
    port: Number(url.port || 6379),
    ...(url.protocol === 'rediss:' ? { tls: {} } : {}),
  };
}

async function execOrThrow(pipe: ReturnType<Redis['pipeline']>): Promise<void> {
  if (pipe.length === 0) return;
  for (const [err] of (await pipe.exec()) ?? []) if (err) throw err;
}
