import { createHmac, KeyObject } from 'node:crypto';

/**
 * Identifiers that are stable for one SP and meaningless to every other (decision 0203):
 * HMAC-SHA256 under SAML_NAMEID_SECRET of the purpose, the SP's entity id and the internal
 * id, base64url (43 characters). Two SPs comparing notes cannot link their values, and
 * nobody without the secret can go from a value back to the user or session.
 */
export function pairwiseId(key: KeyObject, purpose: 'nameid' | 'session', spEntityId: string, internalId: string): string {
  return createHmac('sha256', key).update(`${purpose}\u0000${spEntityId}\u0000${internalId}`).digest('base64url');
}
