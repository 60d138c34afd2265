import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import { assertSafeName, assertSafePassword } from '../credentials';

/**
 * SQL text for the admin steps. DDL takes no bind parameters, so every identifier
 * is checked against the generated-name shape and then quoted; the password never
 * travels in clear: the role gets a SCRAM-SHA-256 verifier computed here, so the
 * secret cannot end up in the server log or pg_stat_activity.
 */
export function ident(name: string): string {
  return `"${assertSafeName(name)}"`;
}

/** RFC 5802 / RFC 7677 verifier in PostgreSQL's stored format. */
export function scramVerifier(password: string, salt = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(assertSafePassword(password), salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}

const ROLE_OPTIONS = 'NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS INHERIT';

function roleBody(password: string, maxConnections: number): string {
  if (!Number.isInteger(maxConnections) || maxConnections < 1) throw new Error('max_connections must be a positive integer');
  // The verifier holds only [A-Za-z0-9+/=$:-], so it needs no escaping inside quotes.
  return `WITH LOGIN ${ROLE_OPTIONS} CONNECTION LIMIT ${maxConnections} PASSWORD '${scramVerifier(password)}'`;
}

export const sql = {
  roleExists: 'SELECT 1 FROM pg_roles WHERE rolname = $1',
  databaseExists: 'SELECT 1 FROM pg_database WHERE datname = $1',
  createRole: (username: string, password: string, maxConnections: number) =>
    `CREATE ROLE ${ident(username)} ${roleBody(password, maxConnections)}`,
  /** Re-running provisioning converges an existing role to the wanted settings. */
  alterRole: (username: string, password: string, maxConnections: number) =>
    `ALTER ROLE ${ident(username)} ${roleBody(password, maxConnections)}`,
  // template0: a clean database, untouched by whatever the operator put in template1.
  createDatabase: (dbName: string, owner: string) => `CREATE DATABASE ${ident(dbName)} OWNER ${ident(owner)} TEMPLATE template0`,
  alterOwner: (dbName: string, owner: string) => `ALTER DATABASE ${ident(dbName)} OWNER TO ${ident(owner)}`,
  /** Only the owner (and superusers) may connect: tenants cannot open each other's databases. */
  revokePublic: (dbName: string) => `REVOKE ALL ON DATABASE ${ident(dbName)} FROM PUBLIC`,
  disableLogin: (username: string) => `ALTER ROLE ${ident(username)} NOLOGIN`,
  terminate: 'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE (datname = $1 OR usename = $2) AND pid <> pg_backend_pid()',
  dropDatabase: (dbName: string) => `DROP DATABASE IF EXISTS ${ident(dbName)} WITH (FORCE)`,
  /** Privileges the role may hold in the admin database would otherwise block DROP ROLE. */
  dropOwned: (username: string) => `DROP OWNED BY ${ident(username)}`,
  dropRole: (username: string) => `DROP ROLE IF EXISTS ${ident(username)}`,
  metrics: `
    SELECT pg_database_size(d.datname)::bigint AS storage_bytes,
           (SELECT count(*) FROM pg_stat_activity a WHERE a.datname = d.datname)::int AS connections,
           (SELECT count(*) FROM pg_stat_activity a WHERE a.datname = d.datname AND a.state = 'active')::int AS active_connections,
           s.xact_commit::bigint, s.xact_rollback::bigint, s.blks_hit::bigint, s.blks_read::bigint,
           s.tup_inserted::bigint, s.tup_updated::bigint, s.tup_deleted::bigint, s.tup_fetched::bigint,
           s.deadlocks::bigint, s.temp_bytes::bigint, s.stats_reset
      FROM pg_database d LEFT JOIN pg_stat_database s ON s.datid = d.oid
     WHERE d.datname = $1`,
  serverVersion: "SELECT current_setting('server_version_num')::int AS v",
};
