import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Client, Pool } from 'pg';
import { describeFile, writeAtomically } from '../backup-file';
import {
  type ConnectionDetails,
  type DatabaseEngine,
  type EngineMetrics,
  type EngineSettings,
  type HealthReport,
  type TenantDatabase,
  type TenantRef,
  EngineObjectMissingError,
} from '../database-engine';
import { AdminConnectedEngine } from '../admin-connected-engine';
import { runChecks } from '../health-checks';
import { assertSafeName } from '../credentials';
import { sql } from './postgres-sql';

const run = promisify(execFile);

export interface PostgresEngineSettings extends EngineSettings {
  /** Directory holding pg_dump/pg_restore; default: found on PATH. */
  binDir?: string;
  sslMode?: string;
}

/** Postgres error codes a re-run provisioning step may meet. */
const DUPLICATE_OBJECT = '42710';
const DUPLICATE_DATABASE = '42P04';

export class PostgresEngine extends AdminConnectedEngine<Pool, PostgresEngineSettings> implements DatabaseEngine {
  readonly engine = 'postgres' as const;
  private toolsChecked?: Promise<void>;

  async provision(db: TenantDatabase): Promise<void> {
    const pool = this.admin();
    // Each step checks before acting, and tolerates losing a race to a twin, so a
    // resumed job converges instead of failing on what its first run already did.
    const role = await pool.query(sql.roleExists, [db.username]);
    if (role.rowCount === 0) {
      await pool.query(sql.createRole(db.username, db.password, db.maxConnections)).catch((err) => {
        if ((err as { code?: string }).code !== DUPLICATE_OBJECT) throw err;
      });
    }
    await pool.query(sql.alterRole(db.username, db.password, db.maxConnections));
    const exists = await pool.query(sql.databaseExists, [db.dbName]);
    if (exists.rowCount === 0) {
      await pool.query(sql.createDatabase(db.dbName, db.username)).catch((err) => {
        if ((err as { code?: string }).code !== DUPLICATE_DATABASE) throw err;
      });
    }
    await pool.query(sql.alterOwner(db.dbName, db.username));
    await pool.query(sql.revokePublic(db.dbName));
  }

  async deprovision(db: TenantRef): Promise<void> {
    const pool = this.admin();
    const role = await pool.query(sql.roleExists, [db.username]);
    if (role.rowCount) await pool.query(sql.disableLogin(db.username));
    await pool.query(sql.terminate, [db.dbName, db.username]);
    await pool.query(sql.dropDatabase(db.dbName));
    if (role.rowCount) {
      await pool.query(sql.dropOwned(db.username));
      await pool.query(sql.dropRole(db.username));
    }
  }

  connectionDetails(db: TenantDatabase): ConnectionDetails {
    const { publicHost: host, publicPort: port } = this.settings;
    const sslMode = this.settings.sslMode ?? 'require';
    return this.detailsFor(db, {
      database: db.dbName,
      connection_string: `postgresql://${db.username}:${db.password}@${host}:${port}/${db.dbName}?sslmode=${sslMode}`,
      ssl_mode: sslMode,
    });
  }

  async backup(db: TenantRef, file: string) {
    await this.assertDatabase(db.dbName);
    await this.checkTools();
    return writeAtomically(file, async (tmp) => {
      await this.tool('pg_dump', [
        '-Fc',
        '--no-password',
        `--role=${assertSafeName(db.username)}`,
        '-f',
        tmp,
        '-d',
        this.urlFor(db.dbName),
      ]);
    });
  }

  async restore(db: TenantRef, file: string): Promise<void> {
    await this.assertDatabase(db.dbName);
    await this.checkTools();
    await describeFile(file); // fails clearly when the file is gone
    // --clean --if-exists drops what the dump holds before recreating it; one
    // transaction so a failed restore leaves the database as it was. --role: the
    // restore runs as the tenant, so a trigger or function the tenant planted in
    // its data never runs with the admin's privileges.
    await this.tool('pg_restore', [
      `--role=${assertSafeName(db.username)}`,
      '--clean',
      '--if-exists',
      '--single-transaction',
      '--exit-on-error',
      '--no-password',
      '-d',
      this.urlFor(db.dbName),
      file,
    ]);
  }

  async metrics(db: TenantRef): Promise<EngineMetrics> {
    const { rows } = await this.admin().query(sql.metrics, [db.dbName]);
    if (rows.length === 0) throw new EngineObjectMissingError(`database ${db.dbName} does not exist on the engine`);
    const r = rows[0] as Record<string, string | number | Date | null>;
    const num = (k: string) => (r[k] === null ? 0 : Number(r[k]));
    const hits = num('blks_hit');
    const reads = num('blks_read');
    return {
      storage_bytes: num('storage_bytes'),
      connections: num('connections'),
      active_connections: num('active_connections'),
      transactions_committed: num('xact_commit'),
      transactions_rolled_back: num('xact_rollback'),
      rows_inserted: num('tup_inserted'),
      rows_updated: num('tup_updated'),
      rows_deleted: num('tup_deleted'),
      rows_fetched: num('tup_fetched'),
      deadlocks: num('deadlocks'),
      temp_bytes: num('temp_bytes'),
      cache_hit_ratio: hits + reads === 0 ? null : Math.round((hits / (hits + reads)) * 10000) / 10000,
    };
  }

  async health(db: TenantDatabase): Promise<HealthReport> {
    if (!this.isAvailable()) return { status: 'unknown', latency_ms: 0, checks: [] };
    const admin = new URL(this.settings.adminUrl!);
    // The control plane reaches the server at its admin address; the public
    // address may be a proxy only tenants' networks reach.
    const client = new Client({
      host: admin.hostname,
      port: Number(admin.port || 5432),
      user: db.username,
      password: db.password,
      database: db.dbName,
      connectionTimeoutMillis: 3000,
      query_timeout: 3000,
    });
    client.on('error', () => undefined); // a server-side termination must not crash the process
    try {
      return await runChecks([
        ['connect', async () => void (await client.connect())],
        ['query', async () => void (await client.query('SELECT 1'))],
      ]);
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  protected openAdmin(adminUrl: string): Pool {
    return new Pool({ connectionString: adminUrl, max: 4, idleTimeoutMillis: 10_000 });
  }

  protected closeAdmin(pool: Pool): Promise<void> {
    return pool.end();
  }

  private async assertDatabase(dbName: string): Promise<void> {
    const { rowCount } = await this.admin().query(sql.databaseExists, [dbName]);
    if (!rowCount) throw new EngineObjectMissingError(`database ${dbName} does not exist on the engine`);
  }

  /** The admin URL pointed at the tenant database, without the password (that goes in PGPASSWORD). */
  private urlFor(dbName: string): string {
    const url = new URL(this.settings.adminUrl!);
    url.password = '';
    url.pathname = `/${dbName}`;
    return url.toString();
  }

  private async tool(name: 'pg_dump' | 'pg_restore', args: string[]): Promise<string> {
    const bin = this.settings.binDir ? `${this.settings.binDir}/${name}` : name;
    const password = decodeURIComponent(new URL(this.settings.adminUrl!).password);
    try {
      const { stdout } = await run(bin, args, {
        env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
        maxBuffer: 16 * 1024 * 1024,
        timeout: 30 * 60 * 1000,
      });
      return stdout;
    } catch (err) {
      const e = err as { stderr?: string; message: string };
      throw new Error(`${name} failed: ${(e.stderr || e.message).trim().slice(0, 500)}`);
    }
  }

  /**
   * pg_dump refuses to dump a server newer than itself; say so once, plainly,
   * instead of failing every backup with its message.
   */
  private checkTools(): Promise<void> {
    this.toolsChecked ??= (async () => {
      const out = await this.tool('pg_dump', ['--version']);
      const clientMajor = Number(/(\d+)(?:\.\d+)?/.exec(out)?.[1]);
      const { rows } = await this.admin().query(sql.serverVersion);
      const serverMajor = Math.floor(Number(rows[0].v) / 10000);
      if (!(clientMajor >= serverMajor)) {
        throw new Error(`pg_dump ${clientMajor} cannot back up server ${serverMajor}; install postgresql-client-${serverMajor}`);
      }
    })().catch((err) => {
      this.toolsChecked = undefined;
      throw err;
    });
    return this.toolsChecked;
  }
}
