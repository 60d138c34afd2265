import { X509Certificate } from 'node:crypto';
import { DomainError } from '../../common/errors';
import { NAME_ID_FORMAT } from '../protocol/saml-urns';
import { isUserFieldPath } from '../protocol/user-claims';
import { COMMON_ERRORS } from '../../common/common.errors';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const MAX_MAPPING_ENTRIES = 50;

export const invalid = (field: string, problem: string) =>
  new DomainError(COMMON_ERRORS.validation_failed, `Invalid request: check ${field}`, { details: { [field]: [problem] } });

/** Absolute https URL; http only for loopback development hosts. No credentials or fragment. */
export function checkAcsUrl(value: string, field = 'acs_url'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(field, `${field} must be an absolute URL`);
  }
  const isLoopback = LOOPBACK_HOSTS.has(url.hostname) || url.hostname.endsWith('.localhost');
  if (!(url.protocol === 'https:' || (url.protocol === 'http:' && isLoopback))) {
    throw invalid(field, `${field} must use https (http is allowed only for localhost)`);
  }
  if (url.username || url.password) throw invalid(field, `${field} must not contain credentials`);
  if (url.hash) throw invalid(field, `${field} must not contain a fragment`);
  return value;
}

export function checkRelayState(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid('default_relay_state', 'default_relay_state must be an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw invalid('default_relay_state', 'default_relay_state must be an http(s) URL');
  }
  return value;
}

/** Claim name -> one of the allowed user field paths (spec). */
export function checkAttributeMapping(mapping: Record<string, unknown>): Record<string, string> {
  const entries = Object.entries(mapping);
  if (entries.length > MAX_MAPPING_ENTRIES) throw invalid('attribute_mapping', `at most ${MAX_MAPPING_ENTRIES} claims`);
  for (const [claim, path] of entries) {
    if (claim.trim() === '' || claim.length > 256) throw invalid('attribute_mapping', 'claim names must be 1 to 256 characters');
    if (!isUserFieldPath(path)) {
      throw invalid(
        'attribute_mapping',
        `"${claim}" maps to ${JSON.stringify(path)}; allowed: email, first_name, last_name, display_name, id`,
      );
    }
  }
  return Object.fromEntries(entries) as Record<string, string>;
}

/** Fields two users may share: an SP keyed on the NameID would merge them (saml-core §8.3). */
const NON_UNIQUE_FIELDS: readonly string[] = ['first_name', 'last_name', 'display_name'];

/**
 * What each NameID format may hold (decision 0203): emailAddress the email; persistent and
 * transient are values we generate, registered with name_id_attribute "id"; unspecified the
 * email or the id. Names are never a NameID: they are not unique.
 */
export function checkNameId(format: string, attribute: string): void {
  if (format === NAME_ID_FORMAT.email && attribute !== 'email') {
    throw invalid('name_id_attribute', 'the emailAddress NameID format needs name_id_attribute "email"');
  }
  if ((format === NAME_ID_FORMAT.persistent || format === NAME_ID_FORMAT.transient) && attribute !== 'id') {
    const kind = format === NAME_ID_FORMAT.persistent ? 'persistent' : 'transient';
    throw invalid(
      'name_id_attribute',
      `the ${kind} NameID format needs name_id_attribute "id": the NameID is an opaque value the IdP derives for each SP` +
        (kind === 'persistent' ? ', unique per user (a name or an email address is neither unique nor permanent)' : ''),
    );
  }
  if (NON_UNIQUE_FIELDS.includes(attribute)) {
    throw invalid(
      'name_id_attribute',
      `${attribute} is not unique (two users can share it), so it cannot identify a user; use email or id`,
    );
  }
}

/** Stored as given when it parses as an X.509 certificate (normalised to PEM). */
export function checkCertificate(pem: string | null | undefined): string | null {
  if (pem === null || pem === undefined || pem.trim() === '') return null;
  try {
    return new X509Certificate(pem.replace(/\\n/g, '\n')).toString();
  } catch {
    throw invalid('sp_cert_pem', 'sp_cert_pem is not a PEM X.509 certificate');
  }
}
