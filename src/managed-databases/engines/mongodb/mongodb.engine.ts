import { type Document, MongoClient, MongoServerError } from 'mongodb';
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
import { MONGO_CODES, mongoCommands, mongoConnectionString, tenantUrlFromAdmin } from './mongodb-commands';
import { MongoDumpWriter, readMongoDump } from './mongodb-dump-file';

const BATCH = 500;

function hasCode(err: unknown, code: number): boolean {
  return err instanceof MongoServerError && err.code === code;
}

/** One database and one user (readWrite + dbAdmin on it) per tenant. */
export class MongodbEngine extends AdminConnectedEngine<MongoClient> implements DatabaseEngine {
  readonly engine = 'mongodb' as const;

  async provision(db: TenantDatabase): Promise<void> {
    const tenantDb = (await this.connectedAdmin()).db(db.dbName);
    const info = await tenantDb.command(mongoCommands.usersInfo(db.username, db.dbName));
    const exists = Array.isArray(info.users) && info.users.length > 0;
    if (!exists) {
      try {
        await tenantDb.command(mongoCommands.createUser(db.username, db.password, db.dbName, db.maxConnections));
        return;
      } catch (err) {
        if (!hasCode(err, MONGO_CODES.userExists)) throw err;
      }
    }
    await tenantDb.command(mongoCommands.updateUser(db.username, db.password, db.dbName, db.maxConnections));
  }

  async deprovision(db: TenantRef): Promise<void> {
    const tenantDb = (await this.connectedAdmin()).db(db.dbName);
    await tenantDb.command(mongoCommands.dropUser(db.username)).catch((err) => {
      if (!hasCode(err, MONGO_CODES.userNotFound)) throw err;
    });
    await tenantDb.dropDatabase();
  }

  connectionDetails(db: TenantDatabase): ConnectionDetails {
    const { publicHost: host, publicPort: port } = this.settings;
    const tls = this.usesTls();
    return this.detailsFor(db, {
      database: db.dbName,
      connection_string: mongoConnectionString({ host, port, tls }, db.username, db.password, db.dbName),
      ssl_mode: tls ? 'require' : 'disable',
    });
  }

  async backup(db: TenantRef, file: string) {
    const tenantDb = (await this.connectedAdmin()).db(db.dbName);
    return writeAtomically(file, async (tmp) => {
      const out = new MongoDumpWriter(tmp);
      try {
        await out.write({
          type: 'header',
          format: 'managed-mongodb',
          version: 1,
          database: db.dbName,
          created_at: new Date().toISOString(),
        });
        const collections = await tenantDb.listCollections({ type: 'collection' }).toArray();
        for (const c of collections.filter((c) => !c.name.startsWith('system.'))) {
          const coll = tenantDb.collection(c.name);
          const indexes = (await coll.indexes()).filter((i) => i.name !== '_id_');
          await out.write({ type: 'collection', name: c.name, options: (c as Document).options ?? {}, indexes });
          for await (const doc of coll.find({}, { batchSize: BATCH })) await out.write({ type: 'doc', collection: c.name, doc });
        }
      } finally {
        await out.close();
      }
    });
  }

  /** Replaces every collection with its backed-up content and drops collections made since. */
  async restore(db: TenantRef, file: string): Promise<void> {
    await describeFile(file);
    const tenantDb = (await this.connectedAdmin()).db(db.dbName);
    const inBackup = new Set<string>();
    let batch: Document[] = [];
    let current = '';
    const flush = async () => {
      if (batch.length) await tenantDb.collection(current).insertMany(batch, { ordered: true });
      batch = [];
    };
    for await (const line of readMongoDump(file)) {
      if (line.type === 'collection') {
        await flush();
        current = line.name;
        inBackup.add(line.name);
        await tenantDb.dropCollection(line.name).catch((err) => {
          if (!hasCode(err, MONGO_CODES.namespaceNotFound)) throw err;
        });
        await tenantDb.createCollection(line.name, line.options);
        if (line.indexes.length) {
          await tenantDb
            .collection(line.name)
            .createIndexes(line.indexes.map(({ v: _v, ns: _ns, ...spec }) => spec as { key: Document; name: string }));
        }
      } else if (line.type === 'doc') {
        batch.push(line.doc);
        if (batch.length >= BATCH) await flush();
      }
    }
    await flush();
    for (const c of await tenantDb.listCollections({ type: 'collection' }).toArray()) {
      if (!inBackup.has(c.name) && !c.name.startsWith('system.')) await tenantDb.dropCollection(c.name);
    }
  }

  async metrics(db: TenantRef): Promise<EngineMetrics> {
    const client = await this.connectedAdmin();
    const stats = await client.db(db.dbName).command(mongoCommands.dbStats());
    const [count] = await client.db('admin').aggregate(mongoCommands.connectionsPipeline(db.username, db.dbName)).toArray();
    const n = (v: unknown) => Number(v ?? 0);
    return {
      storage_bytes: n(stats.storageSize) + n(stats.indexSize),
      connections: n(count?.connections),
      collections: n(stats.collections),
      objects: n(stats.objects),
      data_bytes: n(stats.dataSize),
      index_bytes: n(stats.indexSize),
      avg_object_bytes: n(stats.avgObjSize),
    };
  }

  async health(db: TenantDatabase): Promise<HealthReport> {
    if (!this.isAvailable()) return { status: 'unknown', latency_ms: 0, checks: [] };
    // Reach the server where the control plane reaches it, log in as the tenant.
    const url = tenantUrlFromAdmin(this.settings.adminUrl!, db.username, db.password, db.dbName);
    const client = new MongoClient(url, { serverSelectionTimeoutMS: 3000, connectTimeoutMS: 3000 });
    try {
      return await runChecks([
        ['connect', async () => void (await client.connect())],
        ['ping', async () => void (await client.db(db.dbName).command(mongoCommands.ping()))],
      ]);
    } finally {
      await client.close().catch(() => undefined);
    }
  }

  private usesTls(): boolean {
    const url = this.settings.adminUrl ?? '';
    return /[?&](tls|ssl)=true/.test(url) || url.startsWith('mongodb+srv:');
  }

  protected openAdmin(adminUrl: string): MongoClient {
    return new MongoClient(adminUrl, { serverSelectionTimeoutMS: 5000, maxPoolSize: 4 });
  }

  protected closeAdmin(client: MongoClient): Promise<void> {
    return client.close();
  }

  /** The admin client, connected (connect() on a connected client returns at once; after a failed one, it tries again). */
  private async connectedAdmin(): Promise<MongoClient> {
    const client = this.admin();
    await client.connect();
    return client;
  }
}
