import type { Client } from 'pg';
import { computed } from '../../database/row-shape';
import { one, statement } from '../../database/statement';
import type { Tx } from '../../database/unit-of-work';

/** The channel every instance's CredentialCache LISTENs on (decisions 0009 and 0105). */
export const REVOKED_CHANNEL = 'credential_revoked';
/** The channel on which each listener says it has evicted what a revocation named (decision 0214). */
export const EVICTED_CHANNEL = 'credential_evicted';
/** Payload that revokes every cached credential (hashes are hex, so it never names a token). */
export const EVERY_CREDENTIAL = '*';
/**
 * The application_name of a CredentialCache listener session, set only once it LISTENs: a session that
 * carries it when a revocation commits hears that revocation's NOTIFY.
 */
export const LISTENER_NAME = 'credential-cache';

/**
 * NOTIFY, and the listeners that will hear it (read in the revoking transaction, so every listener named
 * was LISTENing before the commit delivers the notification).
 */
const NOTIFY = statement(
  'credential-revocations.notify',
  `SELECT pg_notify($1, $2)::text AS sent,
          ARRAY(SELECT pid::text FROM pg_stat_activity WHERE application_name = $3 AND datname = current_database()) AS listeners`,
  computed({ listeners: 'text[]' }),
);

/** A revocation sent in a transaction: what it names, and the listener sessions that must evict it. */
export interface RevocationNotice {
  key: string;
  /** Backend pids (as text) of the listener sessions LISTENing when the revocation was sent. */
  listeners: readonly string[];
}

/**
 * In the revoking transaction: tells every instance's CredentialCache to drop the
 * credential when the transaction commits (NOTIFY is delivered at commit, not before;
 * a rolled-back revocation notifies nobody). Hand the answer to `CredentialCache.evictEverywhere`
 * after commit, before answering.
 */
export async function notifyCredentialRevoked(tx: Tx, tokenHash: string): Promise<RevocationNotice> {
  const { listeners } = await one(tx, NOTIFY, [REVOKED_CHANNEL, tokenHash, LISTENER_NAME]);
  return { key: tokenHash, listeners };
}

const NOTIFY_MANY = statement(
  'credential-revocations.notify-many',
  `SELECT (SELECT count(*) FROM (SELECT pg_notify($1, key) FROM unnest($2::text[]) AS k(key)) AS sent)::int AS sent,
          ARRAY(SELECT pid::text FROM pg_stat_activity WHERE application_name = $3 AND datname = current_database()) AS listeners`,
  computed({ listeners: 'text[]' }),
);

/** notifyCredentialRevoked for several keys in one round trip (a revocation that ends several sessions): a notice per key. */
export async function notifyCredentialsRevoked(tx: Tx, keys: readonly string[]): Promise<RevocationNotice[]> {
  if (keys.length === 0) return [];
  const { listeners } = await one(tx, NOTIFY_MANY, [REVOKED_CHANNEL, [...keys], LISTENER_NAME]);
  return keys.map((key) => ({ key, listeners }));
}

/**
 * Subscribes a dedicated session (a connection of its own, never a pooled one) to the channels;
 * its 'notification' events then carry the revoked hashes and the other listeners' acknowledgements.
 * Named a listener only once it listens.
 */
export async function listenForRevocations(session: Client): Promise<void> {
  await session.query(`LISTEN ${REVOKED_CHANNEL}`);
  await session.query(`LISTEN ${EVICTED_CHANNEL}`);
  await session.query(`SET application_name = '${LISTENER_NAME}'`);
}

/** On the listener's session, once it has evicted `key`: "<this session's pid> <key>" to every listener. */
export async function acknowledgeEviction(session: Client, key: string): Promise<void> {
  await session.query(`SELECT pg_notify($1, pg_backend_pid()::text || ' ' || $2)`, [EVICTED_CHANNEL, key]);
}

/**
 * The same for every credential at once, for a change that revokes tokens the caller cannot
 * name (deleting a workspace cascades to its SCIM tokens). Rare, so a full flush is cheap.
 */
export async function notifyAllCredentialsRevoked(tx: Tx): Promise<RevocationNotice> {
  return notifyCredentialRevoked(tx, EVERY_CREDENTIAL);
}
