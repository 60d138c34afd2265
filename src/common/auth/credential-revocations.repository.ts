import type { Client } from 'pg';
import { NO_ROW } from '../../database/row-shape';
import { run, statement } from '../../database/statement';
import type { Tx } from '../../database/unit-of-work';

/** The channel every instance's CredentialCache LISTENs on (decisions 0009 and 0105). */
export const REVOKED_CHANNEL = 'credential_revoked';
/** Payload that revokes every cached credential (hashes are hex, so it never names a token). */
export const EVERY_CREDENTIAL = '*';

const NOTIFY = statement('credential-revocations.notify', `SELECT pg_notify($1, $2)`, NO_ROW);

/**
 * In the revoking transaction: tells every instance's CredentialCache to drop the
 * credential when the transaction commits (NOTIFY is delivered at commit, not before;
 * a rolled-back revocation notifies nobody).
 */
export async function notifyCredentialRevoked(tx: Tx, tokenHash: string): Promise<void> {
  await run(tx, NOTIFY, [REVOKED_CHANNEL, tokenHash]);
}

/**
 * Subscribes a dedicated session (a connection of its own, never a pooled one) to the channel;
 * its 'notification' events then carry the revoked hashes.
 */
export async function listenForRevocations(session: Client): Promise<void> {
  await session.query(`LISTEN ${REVOKED_CHANNEL}`);
}

/**
 * The same for every credential at once, for a change that revokes tokens the caller cannot
 * name (deleting a workspace cascades to its SCIM tokens). Rare, so a full flush is cheap.
 */
export async function notifyAllCredentialsRevoked(tx: Tx): Promise<void> {
  await run(tx, NOTIFY, [REVOKED_CHANNEL, EVERY_CREDENTIAL]);
}
