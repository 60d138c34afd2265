import 'reflect-metadata';
import type { Provider, Type } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { randomBytes, randomUUID } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { dataSourceOptions } from '../../src/database/data-source';
import { ENTITIES } from '../../src/app.entities';
import { bindStatements } from '../../src/database/statement';
import { databaseUrl, workerDatabaseName } from './databases';

/**
 * The repository tier: the database (TypeORM on this worker's migrated database, described as the
 * app describes it) and one feature's providers, nothing else: no HTTP, no guards, no listeners.
 * Statement shapes are bound as at boot.
 */
export interface RepositoryHarness {
  dataSource: DataSource;
  /** Runs the work in one transaction of the tier's data source. */
  transaction<T>(work: (tx: EntityManager) => Promise<T>): Promise<T>;
  get<T>(token: Type<T>): T;
  close(): Promise<void>;
}

export async function bootRepositories(providers: Provider[]): Promise<RepositoryHarness> {
  const module: TestingModule = await Test.createTestingModule({
    imports: [
      TypeOrmModule.forRoot(
        dataSourceOptions({ url: databaseUrl(workerDatabaseName()), embedded: false, poolSize: 3, statementTimeoutMs: 15000 }, ENTITIES),
      ),
      // Every entity's Repository, for the repositories that inject one (@InjectRepository).
      TypeOrmModule.forFeature(ENTITIES),
    ],
    providers,
  }).compile();
  const dataSource = module.get(DataSource);
  bindStatements(dataSource);
  return {
    dataSource,
    transaction: (work) => dataSource.transaction(work),
    get: (token) => module.get(token),
    close: () => module.close(),
  };
}

/**
 * The repository tier for one describe block: booted before its tests (beforeAll), closed after them
 * (afterAll). `repositories` are booted (with `moreProviders`) and handed to `ready` in the same order
 * once booted; the harness answered is usable inside hooks and tests, not while the block is declared.
 * `beforeClose` removes what the suite must not leave in the per-worker database (shared with the
 * e2e suites of the same run).
 */
export function repositoriesForSuite<T extends object[]>(
  repositories: [...{ [K in keyof T]: Type<T[K]> }],
  ready: (...booted: T) => void,
  { moreProviders = [], beforeClose }: { moreProviders?: Provider[]; beforeClose?: (tier: RepositoryHarness) => Promise<unknown> } = {},
): RepositoryHarness {
  let harness: RepositoryHarness | undefined;
  const booted = (): RepositoryHarness => {
    if (!harness) throw new Error('the repository tier boots in beforeAll: use it inside hooks and tests');
    return harness;
  };
  beforeAll(async () => {
    harness = await bootRepositories([...(repositories as Type<object>[]), ...moreProviders]);
    const tier = harness;
    ready(...(repositories.map((token) => tier.get(token as Type<object>)) as T));
  });
  afterAll(async () => {
    if (!harness) return;
    await beforeClose?.(harness);
    await harness.close();
  });
  return {
    get dataSource() {
      return booted().dataSource;
    },
    transaction: (work) => booted().transaction(work),
    get: (token) => booted().get(token),
    close: () => booted().close(),
  };
}

/** Whether the work committed: for a write that refuses (throws) a row its workspace does not have. */
export const commits = (harness: RepositoryHarness, work: (tx: EntityManager) => Promise<unknown>): Promise<boolean> =>
  harness.transaction(work).then(
    () => true,
    () => false,
  );

/** A SHA-256-sized hex string, as the tables keep a secret's hash (no secret behind it). */
export const aSecretHash = (): string => randomBytes(32).toString('hex');

/** A workspace row of its own (the tenant every repository method is scoped by). */
export async function aWorkspaceRow(dataSource: DataSource, name = `ws-${randomUUID().slice(0, 8)}`): Promise<string> {
  const [row] = await dataSource.query<{ id: string }[]>('INSERT INTO workspaces (name) VALUES ($1) RETURNING id', [name]);
  return row.id;
}

/** A developer row (no password anyone can use). */
export async function aDeveloperRow(dataSource: DataSource): Promise<string> {
  const [row] = await dataSource.query<{ id: string }[]>(
    `INSERT INTO developers (email, name, password_hash) VALUES ($1, 'Repo Test', 'x') RETURNING id`,
    [`dev-${randomUUID().slice(0, 12)}@example.test`],
  );
  return row.id;
}

/** A developer who is a member of the workspace, in `role`. */
export async function aMemberRow(dataSource: DataSource, workspaceId: string, role: 'owner' | 'member'): Promise<string> {
  const developerId = await aDeveloperRow(dataSource);
  await dataSource.query(`INSERT INTO workspace_members (workspace_id, developer_id, role) VALUES ($1, $2, $3)`, [
    workspaceId,
    developerId,
    role,
  ]);
  return developerId;
}

/** A workspace, a developer who is a member of it (in `role`) and one who is not: for who may see the workspace's rows. */
export async function aMemberAndAnOutsider(dataSource: DataSource, role: 'owner' | 'member') {
  const workspaceId = await aWorkspaceRow(dataSource);
  return { workspaceId, member: await aMemberRow(dataSource, workspaceId, role), outsider: await aDeveloperRow(dataSource) };
}

/** The developer's email, as the developers table holds it. */
export async function developerEmail(dataSource: DataSource, developerId: string): Promise<string> {
  const [row] = await dataSource.query<{ email: string }[]>('SELECT email FROM developers WHERE id = $1', [developerId]);
  return row.email;
}

/** An end user of the workspace (no password; email unique per run). */
export async function anEndUserRow(
  dataSource: DataSource,
  workspaceId: string,
  email = `user-${randomUUID().slice(0, 12)}@example.test`,
): Promise<string> {
  const [row] = await dataSource.query<{ id: string }[]>('INSERT INTO end_users (workspace_id, email) VALUES ($1, $2) RETURNING id', [
    workspaceId,
    email,
  ]);
  return row.id;
}

/**
 * The tenant contract every workspace-scoped repository keeps (after Ory Kratos's persister
 * tests): a record made in one workspace can be read, updated and deleted there, and another
 * workspace can neither read, update nor delete it, and after its attempts the record is intact.
 */
export interface TenantContract<T> {
  /** Makes a record in the workspace; answers its id. */
  create(workspaceId: string): Promise<string>;
  /** Reads it through the repository as the workspace; undefined when the workspace cannot see it. */
  read(workspaceId: string, id: string): Promise<T | undefined>;
  /** Changes it as the workspace; answers whether a change was made. */
  update?(workspaceId: string, id: string): Promise<boolean>;
  /** Deletes it as the workspace; answers whether it was deleted. */
  delete?(workspaceId: string, id: string): Promise<boolean>;
}

/**
 * A contract's update and delete judged by the table itself, whoever's the row is: each runs the
 * write in a transaction, then reads `column` of the row (undefined once the row is gone).
 */
export function judgedByTable(harness: RepositoryHarness, table: string, column: string) {
  const stored = async (id: string): Promise<unknown> =>
    (await harness.dataSource.query<{ value: unknown }[]>(`SELECT ${column} AS value FROM ${table} WHERE id = $1`, [id]))[0]?.value;
  return {
    /** Whether the write left `value` in the row. */
    async sets<V>(id: string, value: V, write: (tx: EntityManager, value: V) => Promise<unknown>): Promise<boolean> {
      await harness.transaction((tx) => write(tx, value));
      return (await stored(id)) === value;
    },
    /** Whether the write removed the row. */
    async removes(id: string, write: (tx: EntityManager) => Promise<unknown>): Promise<boolean> {
      await harness.transaction(write);
      return (await stored(id)) === undefined;
    },
  };
}

export function itKeepsTheTenantContract<T>(what: string, harness: RepositoryHarness, c: TenantContract<T>): void {
  describe(`${what}: the tenant contract`, () => {
    let owner: string;
    let other: string;
    beforeEach(async () => {
      owner = await aWorkspaceRow(harness.dataSource);
      other = await aWorkspaceRow(harness.dataSource);
    });

    it('reads what its own workspace made', async () => {
      const id = await c.create(owner);
      expect(await c.read(owner, id)).toBeDefined();
    });

    it('another workspace cannot read it', async () => {
      const id = await c.create(owner);
      expect(await c.read(other, id)).toBeUndefined();
    });

    it('another workspace can neither update nor delete it, and it stays as it was', async () => {
      const id = await c.create(owner);
      const before = await c.read(owner, id);
      if (c.update) expect(await c.update(other, id)).toBe(false);
      if (c.delete) expect(await c.delete(other, id)).toBe(false);
      expect(await c.read(owner, id)).toEqual(before);
    });

    it('its own workspace can update and delete it', async () => {
      const id = await c.create(owner);
      if (c.update) expect(await c.update(owner, id)).toBe(true);
      if (c.delete) {
        expect(await c.delete(owner, id)).toBe(true);
        expect(await c.read(owner, id)).toBeUndefined();
      }
    });
  });
}
