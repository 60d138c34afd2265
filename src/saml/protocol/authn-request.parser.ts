import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { Element } from '@xmldom/xmldom';
import { COMPARISONS, Comparison, RequestedAuthnContext } from './authn-context';
import { RequestedSubject } from './name-id';
import { badRequest } from './saml.errors';
import { NS } from './saml-urns';
import { childElements, parseUntrustedXml, pureText } from './strict-xml';

/** What the IdP needs from an AuthnRequest; nothing else is read. */
export interface AuthnRequestInfo {
  id: string;
  issuer: string;
  issueInstant: string;
  destination?: string;
  acsUrl?: string;
  acsIndex?: number;
  protocolBinding?: string;
  forceAuthn: boolean;
  isPassive: boolean;
  nameIdPolicy?: { format?: string; allowCreate?: boolean; spNameQualifier?: string };
  /** <Subject>: who the SP expects to be signed in (saml-core §3.4.1.4). */
  subject?: RequestedSubject;
  /** <RequestedAuthnContext> (saml-core §3.3.2.2.1). */
  requestedAuthnContext?: RequestedAuthnContext;
}

export interface RequestLimits {
  /** Length of the base64 SAMLRequest parameter, checked before decoding. */
  maxEncodedChars: number;
  /** Bytes zlib may produce; inflation stops there (a deflate bomb never grows past it). */
  maxInflatedBytes: number;
}

/** A real AuthnRequest deflates to a few hundred bytes and inflates to 1-3 KB; 12 KiB also stays under Node's 16 KiB header limit, so our message (not a bare 431) explains the refusal. */
export const DEFAULT_REQUEST_LIMITS: RequestLimits = { maxEncodedChars: 12 * 1024, maxInflatedBytes: 32 * 1024 };

/** HTTP-Redirect binding (saml-bindings §3.4.4.1): base64, then raw DEFLATE. Returns the XML text. */
export function decodeRedirectRequest(samlRequest: unknown, limits: RequestLimits = DEFAULT_REQUEST_LIMITS): string {
  if (typeof samlRequest !== 'string' || samlRequest.length === 0) {
    throw badRequest('SAMLRequest is missing (send it once, as a query parameter)');
  }
  if (samlRequest.length > limits.maxEncodedChars) throw badRequest(`SAMLRequest is larger than ${limits.maxEncodedChars} characters`);
  // A "+" left unencoded by the SP arrives as a space after query decoding.
  const b64 = samlRequest.replace(/ /g, '+');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) throw badRequest('SAMLRequest is not base64');
  let inflated: Buffer;
  try {
    inflated = inflateRawSync(Buffer.from(b64, 'base64'), { maxOutputLength: limits.maxInflatedBytes });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw badRequest(`SAMLRequest inflates past ${limits.maxInflatedBytes} bytes`);
    }
    throw badRequest('SAMLRequest is not DEFLATE-compressed (HTTP-Redirect binding)');
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(inflated);
  } catch {
    throw badRequest('SAMLRequest is not UTF-8 text');
  }
}

/**
 * HTTP-POST binding (saml-bindings §3.5.4): base64 of the XML, no compression.
 * Returned re-encoded for the Redirect binding, so one code path handles both.
 */
export function postToRedirectEncoding(samlRequest: unknown, limits: RequestLimits = DEFAULT_REQUEST_LIMITS): string {
  if (typeof samlRequest !== 'string' || samlRequest.length === 0) {
    throw badRequest('SAMLRequest is missing (send it once, as a form field)');
  }
  const b64 = samlRequest.replace(/\s+/g, '');
  if (b64.length > Math.ceil((limits.maxInflatedBytes * 4) / 3) + 4) {
    throw badRequest(`SAMLRequest is larger than ${limits.maxInflatedBytes} bytes`);
  }
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) throw badRequest('SAMLRequest is not base64');
  return deflateRawSync(Buffer.from(b64, 'base64')).toString('base64');
}

export function readRedirectAuthnRequest(samlRequest: unknown, limits?: RequestLimits): AuthnRequestInfo {
  return parseAuthnRequest(decodeRedirectRequest(samlRequest, limits));
}

/**
 * Root attributes of AuthnRequestType (saml-schema-protocol-2.0: RequestAbstractType
 * plus AuthnRequestType). The schema has no anyAttribute, so anything else is invalid.
 */
const ROOT_ATTRIBUTES = new Set([
  'ID',
  'Version',
  'IssueInstant',
  'Destination',
  'Consent',
  'ForceAuthn',
  'IsPassive',
  'ProtocolBinding',
  'AssertionConsumerServiceIndex',
  'AssertionConsumerServiceURL',
  'AttributeConsumingServiceIndex',
  'ProviderName',
]);

/** The schema's child sequence, in order; each may occur at most once. */
const CHILD_SEQUENCE: ReadonlyArray<readonly [string, string]> = [
  [NS.assertion, 'Issuer'],
  [NS.dsig, 'Signature'],
  [NS.protocol, 'Extensions'],
  [NS.assertion, 'Subject'],
  [NS.protocol, 'NameIDPolicy'],
  [NS.assertion, 'Conditions'],
  [NS.protocol, 'RequestedAuthnContext'],
  [NS.protocol, 'Scoping'],
];

const NCNAME = /^[A-Za-z_][A-Za-z0-9._-]*$/;
const DATE_TIME = /^-?\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;
const MAX = { id: 256, issuer: 1024, url: 2048, nameId: 1024, contextRefs: 16 };

/**
 * Checks the AuthnRequest against the parts of the SAML schema that matter here
 * (root element, attributes and their types, child order and cardinality), in
 * microseconds instead of the ~80 ms an xmllint-wasm call costs (decision 0201).
 * Only direct children of the root are read, so a second Issuer hidden deeper
 * (a wrapping attack) is never the one used, and a duplicated one is refused.
 */
export function parseAuthnRequest(xml: string): AuthnRequestInfo {
  const root = parseUntrustedXml(xml);
  if (root.namespaceURI !== NS.protocol || root.localName !== 'AuthnRequest') {
    throw badRequest('The SAML message is not an AuthnRequest');
  }
  checkRootAttributes(root);
  const children = checkChildSequence(root);
  const issuerEl = children.get('Issuer');
  if (!issuerEl) throw badRequest('The AuthnRequest has no Issuer');
  const issuer = bounded(pureText(issuerEl, 'Issuer'), MAX.issuer, 'Issuer');
  if (!issuer) throw badRequest('The AuthnRequest Issuer is empty');

  const id = attr(root, 'ID')!;
  if (!NCNAME.test(id) || id.length > MAX.id) throw badRequest('The AuthnRequest ID is not a valid xs:ID');
  if (attr(root, 'Version') !== '2.0') throw badRequest('Only SAML 2.0 requests are accepted (Version="2.0")');
  const issueInstant = attr(root, 'IssueInstant')!;
  if (!DATE_TIME.test(issueInstant) || Number.isNaN(Date.parse(issueInstant))) throw badRequest('IssueInstant is not an xs:dateTime');

  const policyEl = children.get('NameIDPolicy');
  return {
    id,
    issuer,
    issueInstant,
    destination: optionalUrl(root, 'Destination'),
    acsUrl: optionalUrl(root, 'AssertionConsumerServiceURL'),
    acsIndex: optionalUnsignedShort(root, 'AssertionConsumerServiceIndex'),
    protocolBinding: optionalUrl(root, 'ProtocolBinding'),
    forceAuthn: optionalBoolean(root, 'ForceAuthn'),
    isPassive: optionalBoolean(root, 'IsPassive'),
    nameIdPolicy: policyEl ? readNameIdPolicy(policyEl) : undefined,
    subject: children.has('Subject') ? readSubject(children.get('Subject')!) : undefined,
    requestedAuthnContext: children.has('RequestedAuthnContext')
      ? readRequestedAuthnContext(children.get('RequestedAuthnContext')!)
      : undefined,
  };
}

/**
 * SubjectType: (BaseID | NameID | EncryptedID)?, SubjectConfirmation*. Only a NameID can be
 * compared with the signed-in user; a BaseID or EncryptedID yields a Subject naming nobody
 * we can read, which never matches (so never yields an assertion for someone else).
 */
function readSubject(el: Element): RequestedSubject | undefined {
  const children = childElements(el);
  const identifiers = children.filter((c) => c.localName !== 'SubjectConfirmation');
  for (const c of children) {
    if (c.namespaceURI !== NS.assertion || !['BaseID', 'NameID', 'EncryptedID', 'SubjectConfirmation'].includes(c.localName ?? '')) {
      throw badRequest(`Unexpected element ${c.tagName} in Subject`);
    }
  }
  if (identifiers.length > 1 || (identifiers.length === 1 && children[0] !== identifiers[0])) {
    throw badRequest('Subject must hold at most one identifier, before any SubjectConfirmation');
  }
  if (children.length === 0) throw badRequest('Subject must hold an identifier or a SubjectConfirmation');
  for (const c of children) {
    if (c.localName === 'SubjectConfirmation' && !c.hasAttribute('Method')) throw badRequest('SubjectConfirmation has no Method');
  }
  const id = identifiers[0];
  // Only SubjectConfirmation: names nobody, constrains nothing.
  if (!id) return undefined;
  if (id.localName !== 'NameID') return { nameId: undefined };
  for (let i = 0; i < id.attributes.length; i++) {
    const a = id.attributes.item(i)!;
    if (a.name === 'xmlns' || a.prefix === 'xmlns') continue;
    if (!['Format', 'NameQualifier', 'SPNameQualifier', 'SPProvidedID'].includes(a.name)) {
      throw badRequest(`Unexpected attribute ${a.name} on NameID`);
    }
  }
  return { nameId: bounded(pureText(id, 'NameID'), MAX.nameId, 'NameID'), format: optionalUrl(id, 'Format') };
}

/** RequestedAuthnContextType: Comparison?, then AuthnContextClassRef+ or AuthnContextDeclRef+. */
function readRequestedAuthnContext(el: Element): RequestedAuthnContext {
  for (let i = 0; i < el.attributes.length; i++) {
    const a = el.attributes.item(i)!;
    if (a.name === 'xmlns' || a.prefix === 'xmlns') continue;
    if (a.name !== 'Comparison') throw badRequest(`Unexpected attribute ${a.name} on RequestedAuthnContext`);
  }
  const comparison = (attr(el, 'Comparison')?.trim() ?? 'exact') as Comparison;
  if (!COMPARISONS.includes(comparison)) throw badRequest('RequestedAuthnContext Comparison must be exact, minimum, better or maximum');
  const children = childElements(el);
  if (children.length === 0 || children.length > MAX.contextRefs) {
    throw badRequest(`RequestedAuthnContext must list 1 to ${MAX.contextRefs} AuthnContextClassRef or AuthnContextDeclRef`);
  }
  const kind = children[0].localName;
  const classRefs: string[] = [];
  const declRefs: string[] = [];
  for (const c of children) {
    if (
      c.namespaceURI !== NS.assertion ||
      (c.localName !== 'AuthnContextClassRef' && c.localName !== 'AuthnContextDeclRef') ||
      c.localName !== kind
    ) {
      throw badRequest('RequestedAuthnContext must hold only AuthnContextClassRef or only AuthnContextDeclRef elements');
    }
    const value = bounded(pureText(c, c.localName), MAX.url, c.localName);
    if (value === '' || /\s/.test(value)) throw badRequest(`${c.localName} is not a URI`);
    (kind === 'AuthnContextClassRef' ? classRefs : declRefs).push(value);
  }
  return { comparison, classRefs, declRefs };
}

function checkRootAttributes(root: Element): void {
  for (let i = 0; i < root.attributes.length; i++) {
    const a = root.attributes.item(i)!;
    if (a.name === 'xmlns' || a.prefix === 'xmlns') continue;
    if (!ROOT_ATTRIBUTES.has(a.name)) throw badRequest(`Unexpected attribute ${a.name} on AuthnRequest`);
  }
  for (const required of ['ID', 'Version', 'IssueInstant']) {
    if (!root.hasAttribute(required)) throw badRequest(`The AuthnRequest has no ${required}`);
  }
}

function checkChildSequence(root: Element): Map<string, Element> {
  for (let n = root.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === n.TEXT_NODE && (n.nodeValue ?? '').trim() !== '') throw badRequest('Unexpected text inside AuthnRequest');
    if (n.nodeType === n.CDATA_SECTION_NODE) throw badRequest('Unexpected CDATA inside AuthnRequest');
  }
  const found = new Map<string, Element>();
  let position = -1;
  for (const el of childElements(root)) {
    const index = CHILD_SEQUENCE.findIndex(([ns, name]) => el.namespaceURI === ns && el.localName === name);
    if (index < 0) throw badRequest(`Unexpected element ${el.tagName} in AuthnRequest`);
    if (index <= position) throw badRequest(`Element ${el.tagName} is duplicated or out of order in AuthnRequest`);
    position = index;
    found.set(CHILD_SEQUENCE[index][1], el);
  }
  return found;
}

function readNameIdPolicy(el: Element): AuthnRequestInfo['nameIdPolicy'] {
  if (childElements(el).length > 0) throw badRequest('NameIDPolicy must be empty');
  for (let i = 0; i < el.attributes.length; i++) {
    const a = el.attributes.item(i)!;
    if (a.name === 'xmlns' || a.prefix === 'xmlns') continue;
    if (!['Format', 'SPNameQualifier', 'AllowCreate'].includes(a.name)) throw badRequest(`Unexpected attribute ${a.name} on NameIDPolicy`);
  }
  return {
    format: optionalUrl(el, 'Format'),
    spNameQualifier: attr(el, 'SPNameQualifier'),
    allowCreate: el.hasAttribute('AllowCreate') ? optionalBoolean(el, 'AllowCreate') : undefined,
  };
}

function attr(el: Element, name: string): string | undefined {
  return el.hasAttribute(name) ? el.getAttribute(name)! : undefined;
}

function bounded(value: string, max: number, what: string): string {
  if (value.length > max) throw badRequest(`${what} is longer than ${max} characters`);
  return value;
}

function optionalUrl(el: Element, name: string): string | undefined {
  const value = attr(el, name);
  if (value === undefined) return undefined;
  // xs:anyURI: no whitespace inside; bounded so it cannot bloat the response or the audit row.
  if (/\s/.test(value.trim())) throw badRequest(`${name} is not a URI`);
  return bounded(value.trim(), MAX.url, name);
}

function optionalBoolean(el: Element, name: string): boolean {
  const value = attr(el, name);
  if (value === undefined) return false;
  const v = value.trim();
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  throw badRequest(`${name} is not an xs:boolean`);
}

function optionalUnsignedShort(el: Element, name: string): number | undefined {
  const value = attr(el, name);
  if (value === undefined) return undefined;
  const n = Number(value.trim());
  if (!/^\+?\d+$/.test(value.trim()) || n > 65535) throw badRequest(`${name} is not an xs:unsignedShort`);
  return n;
}
