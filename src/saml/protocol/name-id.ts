import { KeyObject } from 'node:crypto';
import { newSamlId } from './login-response.builder';
import { pairwiseId } from './pairwise';
import { NAME_ID_FORMAT } from './saml-urns';
import { AssertableUser, userField, UserFieldPath } from './user-claims';

/** The SP settings that decide its NameID. */
export interface NameIdRule {
  spEntityId: string;
  format: string;
  attribute: UserFieldPath;
}

/**
 * The NameID value for this user at this SP (decision 0203):
 * - persistent: the pairwise HMAC of the user id for this SP (opaque, stable, unique per user);
 * - transient: a new random value for every assertion;
 * - emailAddress / unspecified: the registered field (email or id; the registry refuses the others).
 */
export function nameIdValue(rule: NameIdRule, user: AssertableUser, key: KeyObject): string {
  switch (rule.format) {
    case NAME_ID_FORMAT.persistent:
      return pairwiseId(key, 'nameid', rule.spEntityId, user.id);
    case NAME_ID_FORMAT.transient:
      return newSamlId();
    default:
      return userField(user, rule.attribute);
  }
}

/** A <Subject><NameID> the SP put in its AuthnRequest. */
export interface RequestedSubject {
  /** undefined: the Subject names nobody we can read (BaseID, EncryptedID). */
  nameId?: string;
  format?: string;
}

/**
 * Whether the requested Subject is this user under the SP's NameID rules (saml-core §3.4.1.4).
 * A Format other than the SP's (unspecified accepted) never matches, nor does a transient value
 * (it was only ever good for one assertion). Email addresses compare case-insensitively.
 */
export function subjectMatches(subject: RequestedSubject, rule: NameIdRule, user: AssertableUser, key: KeyObject): boolean {
  if (subject.nameId === undefined) return false;
  if (subject.format !== undefined && subject.format !== rule.format && subject.format !== NAME_ID_FORMAT.unspecified) return false;
  if (rule.format === NAME_ID_FORMAT.transient) return false;
  const expected = nameIdValue(rule, user, key);
  if (rule.attribute === 'email' && rule.format !== NAME_ID_FORMAT.persistent) {
    return expected.toLowerCase() === subject.nameId.trim().toLowerCase();
  }
  return expected === subject.nameId.trim();
}
