import { createHash } from 'node:crypto';
import { assertSafeName, assertSafePassword } from '../credentials';

/**
 * ACL rules for a tenant user on a shared Redis (decision 0512).
 *
 * Key patterns (`~prefix*`) only guard keys passed as arguments, so the user starts
 * from nothing (`-@all`), gets the data-type commands, and then loses every command
 * that reaches the keyspace or the server as a whole: listing keys (KEYS, SCAN,
 * RANDOMKEY, DBSIZE), wiping or moving data across databases (FLUSH*, SWAPDB, MOVE,
 * COPY with DB, SELECT, MIGRATE), reading other tenants' traffic or settings
 * (MONITOR, CLIENT LIST/KILL, SLOWLOG, INFO, CONFIG, DEBUG, LATENCY, MEMORY STATS),
 * SORT with BY/GET patterns, and scripting and functions, whose cache and library
 * namespace are server-wide. The tenant lists its own keys through the API
 * (`GET /e/v1/developer/databases/{id}/keys/`), which scans with the prefix on
 * the control plane's side.
 */
export const TENANT_ALLOWED = ['+@read', '+@write', '+@pubsub', '+@transaction'];

export const TENANT_DENIED = [
  '-@dangerous',
  '-@admin',
  '-@scripting',
  '-keys',
  '-scan',
  '-randomkey',
  '-dbsize',
  '-flushall',
  '-flushdb',
  '-swapdb',
  '-move',
  '-copy',
  '-select',
  '-migrate',
  '-restore',
  '-restore-asking',
  '-sort',
  '-sort_ro',
  '-pubsub',
  '-pfdebug',
  '-pfselftest',
];

/** Connection housekeeping clients send on their own; none reveals other tenants. */
export const TENANT_CONNECTION = [
  '+ping',
  '+echo',
  '+hello',
  '+auth',
  '+quit',
  '+client|setname',
  '+client|getname',
  '+client|id',
  '+client|info',
  '+command',
];

export function keyPrefix(dbName: string): string {
  return `${assertSafeName(dbName)}:`;
}

/** Redis stores only the SHA-256 of a password; sending the hash keeps the secret out of ACL LOG and MONITOR. */
export function passwordHash(password: string): string {
  return createHash('sha256').update(assertSafePassword(password)).digest('hex');
}

/** Arguments of `ACL SETUSER`: `reset` first, so re-running it converges to exactly these rules. */
export function setUserArgs(username: string, dbName: string, password: string): string[] {
  // The prefix holds only [a-z0-9_:], none of them glob characters, and ends with ':'
  // so tenant "abc" never matches tenant "abcd"'s keys.
  const prefix = keyPrefix(dbName);
  return [
    assertSafeName(username),
    'reset',
    'on',
    `#${passwordHash(password)}`,
    `~${prefix}*`,
    `&${prefix}*`,
    ...TENANT_ALLOWED,
    ...TENANT_DENIED,
    ...TENANT_CONNECTION,
  ];
}
