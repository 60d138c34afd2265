import type { Document } from 'mongodb';
import { assertSafeName, assertSafePassword } from '../credentials';

/**
 * Admin commands for a tenant on MongoDB, built as plain documents so they can be
 * checked without a server. The user lives in the tenant's own database and gets
 * readWrite + dbAdmin there only: dbOwner would add userAdmin, i.e. the power to
 * create users and grant itself more roles (decision 0503).
 */
export function tenantRoles(dbName: string): Array<{ role: string; db: string }> {
  assertSafeName(dbName);
  return [
    { role: 'readWrite', db: dbName },
    { role: 'dbAdmin', db: dbName },
  ];
}

/**
 * The tenant user as it should be, stated whole by both createUser and updateUser, so a resumed
 * job converges to the same password, roles and limits a first run sets. The command's name is
 * the document's first key, as MongoDB requires.
 */
function tenantUser(
  command: 'createUser' | 'updateUser',
  username: string,
  password: string,
  dbName: string,
  maxConnections: number,
): Document {
  return {
    [command]: assertSafeName(username),
    pwd: assertSafePassword(password),
    roles: tenantRoles(dbName),
    mechanisms: ['SCRAM-SHA-256'],
    customData: { managed: true, max_connections: maxConnections },
  };
}

export const mongoCommands = {
  usersInfo: (username: string, dbName: string): Document => ({
    usersInfo: { user: assertSafeName(username), db: assertSafeName(dbName) },
  }),
  createUser: (username: string, password: string, dbName: string, maxConnections: number): Document =>
    tenantUser('createUser', username, password, dbName, maxConnections),
  /** A re-run converges an existing user to the wanted password and roles. */
  updateUser: (username: string, password: string, dbName: string, maxConnections: number): Document =>
    tenantUser('updateUser', username, password, dbName, maxConnections),
  dropUser: (username: string): Document => ({ dropUser: assertSafeName(username) }),
  dbStats: (): Document => ({ dbStats: 1, scale: 1 }),
  ping: (): Document => ({ ping: 1 }),
  /** Open connections of the tenant user, counted by the server's own currentOp. */
  connectionsPipeline: (username: string, dbName: string): Document[] => [
    { $currentOp: { allUsers: true, idleConnections: true } },
    { $match: { effectiveUsers: { $elemMatch: { user: assertSafeName(username), db: assertSafeName(dbName) } } } },
    { $group: { _id: '$connectionId' } },
    { $count: 'connections' },
  ],
};

export interface MongoPublicAddress {
  host: string;
  port: number;
  tls: boolean;
}

/** `mongodb://user:pw@host:port/db?authSource=db`: the URL names the database, as the spec says. */
export function mongoConnectionString(a: MongoPublicAddress, username: string, password: string, dbName: string): string {
  const params = new URLSearchParams({ authSource: dbName, ...(a.tls ? { tls: 'true' } : {}) });
  return `mongodb://${username}:${password}@${a.host}:${a.port}/${dbName}?${params.toString()}`;
}

/**
 * The admin URL with the tenant's credentials and database: how the control
 * plane reaches the server as the tenant (health). String surgery rather than
 * `new URL`, which rejects the multi-host lists replica sets use.
 */
export function tenantUrlFromAdmin(adminUrl: string, username: string, password: string, dbName: string): string {
  const m = /^(mongodb(?:\+srv)?:\/\/)(?:[^@/]*@)?([^/?]+)(?:\/[^?]*)?(?:\?(.*))?$/.exec(adminUrl);
  if (!m) throw new Error('MANAGED_MONGODB_ADMIN_URL is not a mongodb:// or mongodb+srv:// URL');
  const params = new URLSearchParams(m[3] ?? '');
  params.set('authSource', assertSafeName(dbName));
  return `${m[1]}${assertSafeName(username)}:${assertSafePassword(password)}@${m[2]}/${dbName}?${params.toString()}`;
}

/** MongoDB error codes a re-run step may meet. */
export const MONGO_CODES = { userNotFound: 11, userExists: 51003, namespaceNotFound: 26 };
