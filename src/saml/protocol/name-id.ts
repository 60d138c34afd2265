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

/** The <NameIDPolicy> of an AuthnRequest (saml-core §3.4.1.1). */
export interface NameIdPolicy {
  format?: string;
  spNameQualifier?: string;
}

/**
 * The NameID rule that answers a request's NameIDPolicy, or null when the SP's registration
 * cannot produce what it asks for (then: InvalidNameIDPolicy, saml-core §3.4.1.1). The registration
 * decides what an SP may learn about a user; the request may only ask for what it already gives:
 * - no Format, unspecified, or the registered Format: the registered rule;
 * - transient: always (a one-time random value tells the SP less than any other format);
 * - emailAddress from a registration that sends the email address under unspecified;
 * - anything else (persistent from a non-persistent registration, emailAddress from one that sends
 *   no email address, an unknown Format), or an SPNameQualifier naming another SP or an
 *   affiliation: null.
 */
export function ruleForPolicy(rule: NameIdRule, policy: NameIdPolicy | undefined): NameIdRule | null {
  if (policy?.spNameQualifier !== undefined && policy.spNameQualifier !== rule.spEntityId) return null;
  const format = policy?.format;
  if (format === undefined || format === NAME_ID_FORMAT.unspecified || format === rule.format) return rule;
  if (format === NAME_ID_FORMAT.transient) return { ...rule, format };
  if (format === NAME_ID_FORMAT.email && rule.format === NAME_ID_FORMAT.unspecified && rule.attribute === 'email') {
    return { ...rule, format };
  }
  return null;
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
