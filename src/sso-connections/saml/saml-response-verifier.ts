import { timingSafeEqual } from 'node:crypto';
import type { Element } from '@xmldom/xmldom';
import { DEFAULT_ATTRIBUTE_NAMES, SamlAttributeMapping, SamlConnectionSettings, SpEndpoints } from './saml-connection-settings';
import { refuse } from './saml-refusal';
import { verifiedAssertion } from './saml-signature';
import { attr, children, descendants, NS, onlyChild, parseStrict, pureText, validateAgainstSamlSchema } from './saml-xml';

/** Clock skew allowed either side of the IdP's validity window (decision 0422). */
export const CLOCK_SKEW_MS = 120_000;
/** The largest SAMLResponse form field accepted (base64 text), before anything is decoded. */
export const MAX_SAML_RESPONSE_CHARS = 256 * 1024;

const MAX_ID_CHARS = 256;
const STATUS_SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';
const CM_BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
const NAMEID_PERSISTENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent';
const NAMEID_EMAIL = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const AC = 'urn:oasis:names:tc:SAML:2.0:ac:classes:';
/** Authentication context classes that mean two factors (saml-authn-context-2.0, REFEDS, Entra ID). */
const MULTI_FACTOR_CLASSES: ReadonlySet<string> = new Set([
  `${AC}MobileTwoFactorContract`,
  `${AC}MobileTwoFactorUnregistered`,
  `${AC}TimeSyncToken`,
  `${AC}SmartcardPKI`,
  'https://refeds.org/profile/mfa',
  'http://schemas.microsoft.com/claims/multipleauthn',
]);

/** What a verified response says about the person, in the connections module's terms. */
export interface VerifiedSamlSignIn {
  assertionId: string;
  /** Until when the assertion could be presented again: how long its ID must be remembered. */
  replayableUntil: Date;
  /** The IdP's stable name for the person: a persistent NameID or the configured immutable attribute. */
  subject: string;
  email: string | null;
  emailVerified: boolean;
  names: { first: string | null; last: string | null };
  groups: string[];
  upstreamMfa: boolean;
  /** InResponseTo of the assertion, or null for an IdP-initiated (unsolicited) response. */
  inResponseTo: string | null;
}

export interface VerifyInput {
  samlResponse: unknown;
  connection: SamlConnectionSettings;
  sp: SpEndpoints;
  /** The AuthnRequest IDs this browser is waiting on (from its cookie); empty when none. */
  pendingRequestIds: readonly string[];
  now: Date;
}

/**
 * Verifies an HTTP-POST SAMLResponse for one connection and reads the person from the signed
 * assertion only (saml-core, saml-profiles §4.1.4). The signature is checked with xml-crypto
 * where SAML places it (`verifiedAssertion`, decision 0982), which answers the bytes the
 * signature covers; every claim is read from those bytes, never from the document around them,
 * so a wrapped or duplicated assertion cannot lend its data to a genuine signature.
 * Throws SamlRefusal with a typed reason.
 */
export async function verifySamlResponse(input: VerifyInput): Promise<VerifiedSamlSignIn> {
  const xml = decodeResponse(input.samlResponse);
  const response = parseStrict(xml);
  if (response.namespaceURI !== NS.protocol || response.localName !== 'Response') {
    refuse('malformed_response', 'the message is not a SAML Response');
  }
  if (descendants(response, NS.assertion, 'Assertion').length + descendants(response, NS.assertion, 'EncryptedAssertion').length > 1) {
    refuse('signature_invalid', 'the response carries more than one assertion');
  }
  checkStatus(response);
  refuseHiddenText(response);
  try {
    await validateAgainstSamlSchema(xml);
  } catch {
    refuse('malformed_response', 'the response is not valid against the SAML 2.0 schema');
  }
  const assertion = verifiedAssertion(response, xml, input.connection.idpCertificates);

  const { connection, sp } = input;
  checkIssuer(response, assertion, connection.idpEntityId);
  const destination = attr(response, 'Destination');
  if (destination !== undefined && destination !== sp.acsUrl) refuse('destination_mismatch', `Destination is ${destination}`);
  const conditions = onlyChild(assertion, NS.assertion, 'Conditions');
  checkAudience(conditions, sp.entityId);
  const confirmation = bearerConfirmation(assertion);
  const recipient = attr(confirmation, 'Recipient');
  if (recipient !== sp.acsUrl) refuse('destination_mismatch', `Recipient is ${recipient ?? 'missing'}`);
  const replayableUntil = checkTimes(conditions, confirmation, input.now);
  const inResponseTo = checkInResponseTo(response, confirmation, input.pendingRequestIds, connection.allowUnsolicited);

  const assertionId = attr(assertion, 'ID') ?? refuse('malformed_response', 'the assertion has no ID');
  if (assertionId.length > MAX_ID_CHARS) refuse('malformed_response', 'the assertion ID is too long');
  const attributes = readAttributes(assertion);
  const nameId = readNameId(assertion);
  return {
    assertionId,
    replayableUntil,
    subject: subjectOf(nameId, attributes, connection.subjectAttribute),
    email: emailOf(nameId, attributes, connection.attributeMapping),
    // The company's IdP is the authority for its people's addresses (contract: SAML email counts as verified).
    emailVerified: true,
    names: {
      first: mapped(attributes, connection.attributeMapping, 'firstName')[0] ?? null,
      last: mapped(attributes, connection.attributeMapping, 'lastName')[0] ?? null,
    },
    groups: mapped(attributes, connection.attributeMapping, 'groups').slice(0, 200),
    upstreamMfa: connection.trustUpstreamMfa && authnClasses(assertion).some((c) => MULTI_FACTOR_CLASSES.has(c)),
    inResponseTo,
  };
}

function decodeResponse(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') refuse('malformed_response', 'the form carries no SAMLResponse');
  if (value.length > MAX_SAML_RESPONSE_CHARS) refuse('malformed_response', 'the SAMLResponse is too large');
  const compact = value.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) refuse('malformed_response', 'the SAMLResponse is not base64');
  return Buffer.from(compact, 'base64').toString('utf8');
}

/**
 * The signature covers canonical XML without comments, so "admin<!---->.evil" verifies as
 * "admin.evil" while a careless reader sees "admin". We read the signed bytes, but a response
 * built to confuse readers is refused outright rather than interpreted.
 */
function refuseHiddenText(response: Element): void {
  for (const name of ['Issuer', 'NameID', 'Audience', 'AttributeValue', 'AuthnContextClassRef']) {
    for (const el of descendants(response, NS.assertion, name)) pureText(el, name);
  }
}

function checkStatus(response: Element): void {
  const status = onlyChild(response, NS.protocol, 'Status');
  const code = status && onlyChild(status, NS.protocol, 'StatusCode');
  const value = attr(code, 'Value');
  if (value === STATUS_SUCCESS) return;
  const nested = code && attr(onlyChild(code, NS.protocol, 'StatusCode'), 'Value');
  refuse('upstream_error', `the IdP answered ${[value ?? 'no status', nested].filter(Boolean).join(' / ')}`);
}

function checkIssuer(response: Element, assertion: Element, idpEntityId: string): void {
  const assertionIssuer = onlyChild(assertion, NS.assertion, 'Issuer');
  const issued = assertionIssuer ? pureText(assertionIssuer, 'Issuer') : undefined;
  if (issued !== idpEntityId) refuse('issuer_mismatch', `the assertion's Issuer is ${issued ?? 'missing'}`);
  const responseIssuer = onlyChild(response, NS.assertion, 'Issuer');
  if (responseIssuer && pureText(responseIssuer, 'Issuer') !== idpEntityId) {
    refuse('issuer_mismatch', "the response's Issuer differs from the IdP's");
  }
}

function checkAudience(conditions: Element | undefined, spEntityId: string): void {
  const restrictions = conditions ? children(conditions, NS.assertion, 'AudienceRestriction') : [];
  if (restrictions.length === 0) refuse('audience_mismatch', 'the assertion names no audience');
  // Each AudienceRestriction must include us (saml-core §2.5.1.4).
  for (const restriction of restrictions) {
    const audiences = children(restriction, NS.assertion, 'Audience').map((a) => pureText(a, 'Audience'));
    if (!audiences.includes(spEntityId)) refuse('audience_mismatch', `the assertion is for ${audiences.join(', ') || 'nobody'}`);
  }
}

function bearerConfirmation(assertion: Element): Element {
  const subject = onlyChild(assertion, NS.assertion, 'Subject') ?? refuse('subject_missing', 'the assertion has no Subject');
  const bearer = children(subject, NS.assertion, 'SubjectConfirmation').filter((c) => attr(c, 'Method') === CM_BEARER);
  if (bearer.length !== 1) refuse('malformed_response', 'the assertion needs exactly one bearer SubjectConfirmation');
  return (
    onlyChild(bearer[0], NS.assertion, 'SubjectConfirmationData') ?? refuse('malformed_response', 'the bearer confirmation has no data')
  );
}

/** Checks the validity windows and answers until when the assertion ID must be remembered. */
function checkTimes(conditions: Element | undefined, confirmation: Element, now: Date): Date {
  const notBefore = instant(attr(conditions, 'NotBefore'));
  const conditionsEnd = instant(attr(conditions, 'NotOnOrAfter'));
  const confirmationEnd = instant(attr(confirmation, 'NotOnOrAfter'));
  if (confirmationEnd === null) refuse('malformed_response', 'the bearer confirmation has no NotOnOrAfter');
  const t = now.getTime();
  if (notBefore !== null && t + CLOCK_SKEW_MS < notBefore) refuse('response_expired', 'the assertion is not valid yet');
  const end = Math.min(confirmationEnd, conditionsEnd ?? Infinity);
  if (t - CLOCK_SKEW_MS >= end) refuse('response_expired', `the assertion expired at ${new Date(end).toISOString()}`);
  return new Date(end + CLOCK_SKEW_MS);
}

function instant(value: string | undefined): number | null {
  if (value === undefined) return null;
  const ms = Date.parse(value);
  if (!/^\d{4}-\d\d-\d\dT/.test(value) || Number.isNaN(ms)) refuse('malformed_response', `${value} is not a dateTime`);
  return ms;
}

/**
 * Binds the answer to the request this browser started: the signed InResponseTo must be one of
 * the IDs in this browser's cookie (two tabs may each wait on a sign-in). An answer without one
 * is IdP-initiated and accepted only where the connection allows it (saml-profiles §4.1.5).
 */
function checkInResponseTo(response: Element, confirmation: Element, pending: readonly string[], allowUnsolicited: boolean): string | null {
  const signed = attr(confirmation, 'InResponseTo') ?? null;
  const envelope = attr(response, 'InResponseTo') ?? null;
  if (envelope !== null && envelope !== signed) refuse('state_mismatch', "the response's InResponseTo differs from the assertion's");
  if (signed === null) {
    if (!allowUnsolicited) refuse('unsolicited_response', 'the response answers no request of ours');
    return null;
  }
  if (!pending.some((id) => constantTimeEqual(signed, id))) {
    refuse('state_mismatch', 'the response answers a request this browser did not start');
  }
  return signed;
}

function constantTimeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

interface NameId {
  value: string;
  format: string | undefined;
}

function readNameId(assertion: Element): NameId | null {
  const subject = onlyChild(assertion, NS.assertion, 'Subject');
  const nameId = subject && onlyChild(subject, NS.assertion, 'NameID');
  if (!nameId) return null;
  return { value: pureText(nameId, 'NameID'), format: attr(nameId, 'Format') };
}

type Attributes = Map<string, string[]>;

function readAttributes(assertion: Element): Attributes {
  const out: Attributes = new Map();
  for (const statement of children(assertion, NS.assertion, 'AttributeStatement')) {
    for (const attribute of children(statement, NS.assertion, 'Attribute')) {
      const values = children(attribute, NS.assertion, 'AttributeValue')
        .map((v) => pureText(v, 'AttributeValue'))
        .filter((v) => v !== '');
      for (const key of [attr(attribute, 'Name'), attr(attribute, 'FriendlyName')]) {
        if (key !== undefined && !out.has(key)) out.set(key, values);
      }
    }
  }
  return out;
}

function mapped(attributes: Attributes, mapping: SamlAttributeMapping, claim: keyof SamlAttributeMapping): string[] {
  const names = mapping[claim] ? [mapping[claim]] : DEFAULT_ATTRIBUTE_NAMES[claim];
  for (const name of names) {
    const values = attributes.get(name);
    if (values && values.length > 0) return values;
  }
  return [];
}

function subjectOf(nameId: NameId | null, attributes: Attributes, subjectAttribute: string | null | undefined): string {
  if (subjectAttribute) {
    const values = attributes.get(subjectAttribute) ?? [];
    if (values.length !== 1) refuse('subject_missing', `the attribute ${subjectAttribute} must carry exactly one value`);
    return values[0];
  }
  if (nameId?.format === NAMEID_PERSISTENT && nameId.value !== '') return nameId.value;
  return refuse('subject_missing', 'the assertion has no persistent NameID and the connection names no immutable attribute');
}

function emailOf(nameId: NameId | null, attributes: Attributes, mapping: SamlAttributeMapping): string | null {
  if (nameId?.format === NAMEID_EMAIL && nameId.value.includes('@')) return nameId.value.toLowerCase();
  const value = mapped(attributes, mapping, 'email')[0];
  return value && value.includes('@') ? value.toLowerCase() : null;
}

function authnClasses(assertion: Element): string[] {
  return children(assertion, NS.assertion, 'AuthnStatement')
    .flatMap((s) => children(s, NS.assertion, 'AuthnContext'))
    .flatMap((c) => children(c, NS.assertion, 'AuthnContextClassRef'))
    .map((r) => pureText(r, 'AuthnContextClassRef'));
}
