import { createPublicKey, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { Element } from '@xmldom/xmldom';
import { SignedXml } from 'xml-crypto';
import { findAncestorNsForElement } from 'xml-crypto/lib/utils';
import { refuse, SamlRefusal } from './saml-refusal';
import { attr, children, descendants, NS, parseStrict } from './saml-xml';

/** The signature methods accepted (SHA-1 is refused before this, by name). */
const SIGNATURE_ALGORITHMS: ReadonlySet<string> = new Set([
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'http://www.w3.org/2007/05/xmldsig-more#sha256-rsa-MGF1',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
]);
const WEAK_SIGNATURE_METHOD = /#(rsa-)?sha1$/;

/** The public key of each IdP certificate seen, so a certificate is parsed once per process, not per answer. */
const keys = new Map<string, KeyObject | null>();
const MAX_KEYS = 1_000;

/**
 * The assertion that a signature by one of the connection's certificates covers, read from the
 * signed bytes (the canonical form of the referenced element), never from the document around them
 * (decision 0982). A signature counts only where SAML puts one (saml-core §5.4): a child of the
 * Response or of its one Assertion, with a single same-document reference to the element that holds
 * it, whose ID no other element carries. xml-crypto's steps check the digest and the RSA signature
 * over the canonical SignedInfo, with our certificate's key (never one from KeyInfo), on the
 * document the ACS parsed (decision 0983). A signature anywhere else in the message is refused.
 */
export function verifiedAssertion(response: Element, certificates: readonly string[]): Element {
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
    // The element a signature covers must be the only one carrying its ID (as ID, Id or id, the names
    // xml-crypto looks up), so that what is verified and what is read cannot be two elements.
    const holderId = attr(signature.parentNode as Element, 'ID');
    if (holderId !== undefined && ids.get(holderId) !== 1) refuse('signature_invalid', 'signature wrapping detected');
    for (const key of keysToTry(signature, certificates)) {
      try {
        return signedAssertion(signature, key);
      } catch (err) {
        if (err instanceof SamlRefusal) throw err;
        lastError = 'no signature verifies with the connection certificates';
      }
    }
  }
  return refuse('signature_invalid', lastError);
}

/**
 * What `SignedXml.checkSignature` does in its own copy of the document, done on ours (decision 0983):
 * xml-crypto's checkSignature takes the message as text, parses it again, and finds the reference,
 * the loaded signature and both elements' ancestors' namespaces by XPath over the whole document,
 * about half of the check's CPU. Here its own steps run on the element that holds the signature:
 * SignedInfo canonicalised as declared and read back for its reference, the reference canonicalised
 * with its transforms and digested, the signature value verified over the canonical SignedInfo.
 * Any step xml-crypto does not have (another version) fails the check, never passes it.
 */
interface SignedXmlSteps {
  signatureAlgorithm?: string;
  canonicalizationAlgorithm?: string;
  signatureValue?: string;
  references: Array<{
    uri?: string;
    transforms: string[];
    digestAlgorithm: string;
    digestValue: string;
    inclusiveNamespacesPrefixList: string[];
  }>;
  loadReference(reference: unknown): void;
  getCanonXml(transforms: string[], node: unknown, options: object): string;
  canonicalize(transforms: string[], node: unknown, options: object, flags: { discardComments: boolean }): string;
  findHashAlgorithm(name: string): { getHash(xml: string): string };
  findSignatureAlgorithm(name?: string): { verifySignature(material: string, key: KeyObject, signatureValue: string): boolean };
}
const STEPS = ['loadReference', 'getCanonXml', 'canonicalize', 'findHashAlgorithm', 'findSignatureAlgorithm'] as const;
const EXCLUSIVE_C14N: ReadonlySet<string> = new Set([
  'http://www.w3.org/2001/10/xml-exc-c14n#',
  'http://www.w3.org/2001/10/xml-exc-c14n#WithComments',
]);

/** Checks one signature with one key; answers the assertion it covers or throws. */
function signedAssertion(signature: Element, key: KeyObject): Element {
  const holder = signature.parentNode as Element;
  const holderId = attr(holder, 'ID') ?? refuse('signature_invalid', 'the signed element has no ID');
  const sig = new SignedXml({ publicCert: key, getCertFromKeyInfo: () => null });
  const steps = sig as unknown as SignedXmlSteps;
  if (STEPS.some((step) => typeof steps[step] !== 'function')) throw new Error('xml-crypto lacks a step of checkSignature');
  sig.loadSignature(signature as unknown as Parameters<SignedXml['loadSignature']>[0]);
  if (!SIGNATURE_ALGORITHMS.has(String(steps.signatureAlgorithm))) {
    refuse('signature_invalid', `the signature method ${String(steps.signatureAlgorithm)} is not accepted`);
  }
  // saml-core §5.4.3: exclusive canonicalisation (the only kind that does not depend on the document around).
  if (!EXCLUSIVE_C14N.has(String(steps.canonicalizationAlgorithm))) {
    refuse('signature_invalid', 'the signature is not exclusively canonicalised');
  }

  // SignedInfo, canonical, read back: its reference is taken from the canonical form only.
  const signedInfos = children(signature, NS.dsig, 'SignedInfo');
  if (signedInfos.length !== 1) throw new Error('one SignedInfo expected');
  const signedInfoCanon = steps.getCanonXml([steps.canonicalizationAlgorithm!], signedInfos[0], {
    ancestorNamespaces: findAncestorNsForElement(signedInfos[0] as unknown as Parameters<typeof findAncestorNsForElement>[0]),
  });
  const references = children(parseStrict(signedInfoCanon), NS.dsig, 'Reference');
  if (references.length !== 1) refuse('signature_invalid', 'the signature must cover exactly one element');
  steps.references = [];
  steps.loadReference(references[0]);
  const [reference] = steps.references;
  // saml-core §5.4.2: a same-document reference to the ID of the element that holds the signature.
  if (reference.uri !== `#${holderId}`) refuse('signature_invalid', 'the signature does not cover the element that holds it');

  // The reference: the holder with its transforms (the enveloped signature removed, comments dropped), digested.
  const signedXml = steps.canonicalize(
    reference.transforms,
    holder,
    {
      inclusiveNamespacesPrefixList: reference.inclusiveNamespacesPrefixList,
      ancestorNamespaces: findAncestorNsForElement(holder as unknown as Parameters<typeof findAncestorNsForElement>[0]),
    },
    { discardComments: true },
  );
  const digest = Buffer.from(steps.findHashAlgorithm(reference.digestAlgorithm).getHash(signedXml), 'base64');
  const expected = Buffer.from(reference.digestValue, 'base64');
  if (digest.length === 0 || digest.length !== expected.length || !timingSafeEqual(digest, expected)) throw new Error('the digest differs');
  if (
    !steps.signatureValue ||
    !steps.findSignatureAlgorithm(steps.signatureAlgorithm).verifySignature(signedInfoCanon, key, steps.signatureValue)
  ) {
    throw new Error('the signature value does not verify');
  }

  // Everything is read from the signed bytes, parsed again, never from the document around them.
  const signed = parseStrict(signedXml);
  if (signed.namespaceURI !== holder.namespaceURI || signed.localName !== holder.localName || attr(signed, 'ID') !== holderId) {
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
