import { randomBytes } from 'node:crypto';
import { CM_BEARER, NS, STATUS } from './saml-urns';
import { SigningKey, signRootElement } from './xml-signer';
import { escapeXml as x } from './xml-text';

/** Conditions window (spec Limits): 5 minutes ahead, 30 s of skew tolerance behind. */
export const ASSERTION_LIFETIME_MS = 5 * 60_000;
export const CLOCK_SKEW_MS = 30_000;

export interface IdpIdentity extends SigningKey {
  entityId: string;
}

export interface SamlAttribute {
  name: string;
  value: string;
}

export interface LoginResponseInput {
  /** The AuthnRequest ID, echoed as InResponseTo. */
  inResponseTo: string;
  /** The SP's registered ACS URL: Destination and SubjectConfirmation Recipient. */
  acsUrl: string;
  /** The SP's entity id: the Audience. */
  audience: string;
  nameId: string;
  nameIdFormat: string;
  /** Per SP per session (pairwise.ts), never the session's own id. */
  sessionIndex: string;
  authnInstant: Date;
  /** How the user actually signed in (authn-context.ts). */
  authnContextClassRef: string;
  attributes: readonly SamlAttribute[];
  /** true: sign the Assertion; false: sign the Response instead. Never neither. */
  signAssertion: boolean;
  now?: Date;
}

export interface BuiltResponse {
  xml: string;
  responseId: string;
  assertionId?: string;
}

/** xs:ID values: a letter or underscore first, then 160 bits of randomness. */
export function newSamlId(): string {
  return `_${randomBytes(20).toString('hex')}`;
}

/**
 * Builds the Response from our own template rather than samlify's default, which
 * has no AuthnStatement and sets NotBefore to "now" with no skew. Every value is
 * escaped where it is placed. The Assertion is signed on its own and spliced in:
 * exclusive c14n makes its digest independent of the enclosing Response, and
 * xml-crypto then parses 3 KB instead of the whole message.
 */
export function buildLoginResponse(idp: IdpIdentity, input: LoginResponseInput): BuiltResponse {
  const now = input.now ?? new Date();
  const responseId = newSamlId();
  const assertionId = newSamlId();
  const issueInstant = now.toISOString();
  const notOnOrAfter = new Date(now.getTime() + ASSERTION_LIFETIME_MS).toISOString();
  const notBefore = new Date(now.getTime() - CLOCK_SKEW_MS).toISOString();

  let assertion =
    `<saml:Assertion xmlns:saml="${NS.assertion}" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ID="${assertionId}" Version="2.0" IssueInstant="${issueInstant}">` +
    `<saml:Issuer>${x(idp.entityId)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${x(input.nameIdFormat)}">${x(input.nameId)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="${CM_BEARER}"><saml:SubjectConfirmationData InResponseTo="${x(input.inResponseTo)}" NotOnOrAfter="${notOnOrAfter}" Recipient="${x(input.acsUrl)}"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${notBefore}" NotOnOrAfter="${notOnOrAfter}"><saml:AudienceRestriction><saml:Audience>${x(input.audience)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${input.authnInstant.toISOString()}" SessionIndex="${x(input.sessionIndex)}"><saml:AuthnContext><saml:AuthnContextClassRef>${x(input.authnContextClassRef)}</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    attributeStatement(input.attributes) +
    `</saml:Assertion>`;
  if (input.signAssertion) assertion = stripXmlDeclaration(signRootElement(assertion, idp));

  const response = responseEnvelope(
    idp,
    { responseId, issueInstant, acsUrl: input.acsUrl, inResponseTo: input.inResponseTo },
    STATUS.success,
    undefined,
    assertion,
  );
  const xml = input.signAssertion ? response : signRootElement(response, idp);
  return { xml, responseId, assertionId };
}

/**
 * A Response carrying only a status (e.g. Responder/NoPassive for IsPassive with no session,
 * Requester/NoAuthnContext, saml-core §3.2.2.2). It holds no assertion, but it is still signed
 * so the SP can trust that it came from us.
 */
export function buildStatusResponse(
  idp: IdpIdentity,
  input: { inResponseTo: string; acsUrl: string; status: string; topLevel?: string; message?: string; now?: Date },
): BuiltResponse {
  const responseId = newSamlId();
  const issueInstant = (input.now ?? new Date()).toISOString();
  const topLevel = input.status === STATUS.success ? input.status : (input.topLevel ?? STATUS.responder);
  const xml = responseEnvelope(
    idp,
    { responseId, issueInstant, acsUrl: input.acsUrl, inResponseTo: input.inResponseTo },
    topLevel,
    input.status === topLevel ? undefined : input.status,
    '',
    input.message,
  );
  return { xml: signRootElement(xml, idp), responseId };
}

function responseEnvelope(
  idp: IdpIdentity,
  ids: { responseId: string; issueInstant: string; acsUrl: string; inResponseTo: string },
  statusCode: string,
  secondLevel: string | undefined,
  assertion: string,
  message?: string,
): string {
  const inner = secondLevel ? `<samlp:StatusCode Value="${x(secondLevel)}"/>` : '';
  const status =
    `<samlp:Status><samlp:StatusCode Value="${x(statusCode)}">${inner}</samlp:StatusCode>` +
    (message ? `<samlp:StatusMessage>${x(message)}</samlp:StatusMessage>` : '') +
    `</samlp:Status>`;
  return (
    `<samlp:Response xmlns:samlp="${NS.protocol}" xmlns:saml="${NS.assertion}" ID="${ids.responseId}" Version="2.0" IssueInstant="${ids.issueInstant}" Destination="${x(ids.acsUrl)}" InResponseTo="${x(ids.inResponseTo)}">` +
    `<saml:Issuer>${x(idp.entityId)}</saml:Issuer>${status}${assertion}</samlp:Response>`
  );
}

function attributeStatement(attributes: readonly SamlAttribute[]): string {
  // The schema requires at least one Attribute inside an AttributeStatement.
  if (attributes.length === 0) return '';
  const items = attributes
    .map(
      (a) =>
        `<saml:Attribute Name="${x(a.name)}" NameFormat="${nameFormat(a.name)}"><saml:AttributeValue xsi:type="xs:string">${x(a.value)}</saml:AttributeValue></saml:Attribute>`,
    )
    .join('');
  return `<saml:AttributeStatement>${items}</saml:AttributeStatement>`;
}

/** saml-core §8.2: claim names that are URIs (urn:oid:..., http://...) use the uri format. */
function nameFormat(name: string): string {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(name)
    ? 'urn:oasis:names:tc:SAML:2.0:attrname-format:uri'
    : 'urn:oasis:names:tc:SAML:2.0:attrname-format:basic';
}

function stripXmlDeclaration(xml: string): string {
  return xml.replace(/^<\?xml[^>]*\?>\s*/, '');
}
