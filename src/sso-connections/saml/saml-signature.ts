import { createPublicKey, type KeyObject } from 'node:crypto';
import type { Element } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { refuse, SamlRefusal } from './saml-refusal';
import { attr, children, descendants, NS, parseStrict } from './saml-xml';

/** The signature methods accepted (SHA-1 is refused before this, by name). */
const SIGNATURE_ALGORITHMS: ReadonlySet<string> = new Set([
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'http://www.w3.org/2007/05/xmldsig-more#sha256-rsa-MGF1',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
]);
const WEAK_SIGNATURE_METHOD = /#(rsa-)?sha1$/;
const DUPLICATE_IDS = 'Cannot validate a document which contains multiple elements with the same value';

/** The public key of each IdP certificate seen, so a certificate is parsed once per process, not per answer. */
const keys = new Map<string, KeyObject | null>();
const MAX_KEYS = 1_000;

/**
 * The assertion that a signature by one of the connection's certificates covers, read from the
 * signed bytes (xml-crypto's canonical form of the referenced element), never from the document
 * around them (decision 0982). A signature counts only where SAML puts one (saml-core §5.4): a
 * child of the Response or of its one Assertion, with a single same-document reference to the
 * element that holds it. xml-crypto checks the digest, that no other element carries the same ID
 * (signature wrapping) and the RSA signature over the canonical SignedInfo, with our certificate's
 * key (never one from KeyInfo). A signature anywhere else in the message is refused outright.
 */
export function verifiedAssertion(response: Element, xml: string, certificates: readonly string[]): Element {
  const assertions = children(response, NS.assertion, 'Assertion');
  const placed = [...children(response, NS.dsig, 'Signature'), ...assertions.flatMap((a) => children(a, NS.dsig, 'Signature'))];
  const all = descendants(response, NS.dsig, 'Signature');
  if (all.length !== placed.length) refuse('signature_invalid', 'signature wrapping detected');
  if (placed.length === 0) refuse('signature_invalid', 'no signature over the response or the assertion');
  for (const method of descendants(response, NS.dsig, 'SignatureMethod')) {
    if (WEAK_SIGNATURE_METHOD.test(attr(method, 'Algorithm') ?? '')) refuse('signature_invalid', 'SHA-1 signatures are refused');
  }

  const ids = idCounts(response);
  let lastError = 'no signature verifies with the connection certificates';
  for (const signature of placed) {
    // The element a signature covers must be the only one carrying its ID (under any of the names
    // xml-crypto knows), so that what is verified and what is read cannot be two elements.
    const holderId = attr(signature.parentNode as Element, 'ID');
    if (holderId !== undefined && ids.get(holderId) !== 1) refuse('signature_invalid', 'signature wrapping detected');
    for (const key of keysToTry(signature, certificates)) {
      try {
        return signedAssertion(signature, xml, key);
      } catch (err) {
        if (err instanceof SamlRefusal) throw err;
        if (err instanceof Error && err.message.startsWith(DUPLICATE_IDS)) refuse('signature_invalid', 'signature wrapping detected');
        lastError = 'no signature verifies with the connection certificates';
      }
    }
  }
  return refuse('signature_invalid', lastError);
}

/** Checks one signature with one key; answers the assertion it covers or throws. */
function signedAssertion(signature: Element, xml: string, key: KeyObject): Element {
  const holder = signature.parentNode as Element;
  const sig = new SignedXml({ publicCert: key, getCertFromKeyInfo: () => null });
  // SAML names its IDs `ID`: one XPath over the document for the reference instead of three (the
  // uniqueness of the value under `Id` and `id` too is checked by idCounts, on our parse).
  sig.idAttributes = ['ID'];
  sig.loadSignature(signature as unknown as Parameters<SignedXml['loadSignature']>[0]);
  if (!SIGNATURE_ALGORITHMS.has(String(sig.signatureAlgorithm))) {
    refuse('signature_invalid', `the signature method ${String(sig.signatureAlgorithm)} is not accepted`);
  }
  if (!sig.checkSignature(xml)) throw new Error('a reference does not verify');
  const references = sig.getSignedReferences();
  if (references.length !== 1) refuse('signature_invalid', 'the signature must cover exactly one element');
  const signed = parseStrict(references[0]);
  const holderId = attr(holder, 'ID');
  if (
    holderId === undefined ||
    signed.namespaceURI !== holder.namespaceURI ||
    signed.localName !== holder.localName ||
    attr(signed, 'ID') !== holderId
  ) {
    refuse('signature_invalid', 'the signature does not cover the element that holds it');
  }
  if (signed.localName === 'Assertion') return signed;
  const inside = children(signed, NS.assertion, 'Assertion');
  if (inside.length !== 1) refuse('signature_invalid', 'the signed response carries no single plain assertion');
  return inside[0];
}

/** How many attributes named ID, Id or id (in any namespace) carry each value, over the whole message. */
function idCounts(root: Element): Map<string, number> {
  const counts = new Map<string, number>();
  const elements = [root, ...Array.from(root.getElementsByTagName('*') as unknown as ArrayLike<Element>)];
  for (const el of elements) {
    for (let i = 0; i < el.attributes.length; i++) {
      const a = el.attributes.item(i)!;
      const name = a.localName ?? a.name;
      if (name === 'ID' || name === 'Id' || name === 'id') counts.set(a.value, (counts.get(a.value) ?? 0) + 1);
    }
  }
  return counts;
}

/**
 * The connection's certificates' keys, the one the signature names in its KeyInfo first (so a
 * rollover's second certificate costs no failed check); a certificate it names that is not the
 * connection's is simply not used.
 */
function keysToTry(signature: Element, certificates: readonly string[]): KeyObject[] {
  const embedded = descendants(signature, NS.dsig, 'X509Certificate').map((c) => bare(c.textContent ?? ''));
  const ordered = [...certificates].sort((a, b) => Number(embedded.includes(bare(b))) - Number(embedded.includes(bare(a))));
  return ordered.map(publicKeyOf).filter((k): k is KeyObject => k !== null);
}

function bare(certificate: string): string {
  return certificate.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
}

function publicKeyOf(certificate: string): KeyObject | null {
  const body = bare(certificate);
  let key = keys.get(body);
  if (key !== undefined) return key;
  try {
    const pem = `-----BEGIN CERTIFICATE-----\n${(body.match(/.{1,64}/g) ?? []).join('\n')}\n-----END CERTIFICATE-----\n`;
    key = createPublicKey(pem);
  } catch {
    key = null;
  }
  if (keys.size >= MAX_KEYS) keys.clear();
  keys.set(body, key);
  return key;
}
