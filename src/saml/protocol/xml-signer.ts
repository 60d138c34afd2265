import { createHash, KeyObject, sign } from 'node:crypto';
import { SignedXml } from 'xml-crypto';
import { canonicalXml, writeXml, XmlElement } from './canonical-xml';
import { NS } from './saml-urns';

export const SIGNATURE_ALGORITHM = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
export const DIGEST_ALGORITHM = 'http://www.w3.org/2001/04/xmlenc#sha256';
export const EXC_C14N = 'http://www.w3.org/2001/10/xml-exc-c14n#';
const ENVELOPED = 'http://www.w3.org/2000/09/xmldsig#enveloped-signature';

export interface SigningKey {
  /** Parsed once at boot; xml-crypto re-parses PEM text on every signature otherwise. */
  privateKey: KeyObject;
  /** Base64 DER of the certificate published in KeyInfo. */
  certBase64: string;
}

/**
 * Signs the document's root element (a saml:Assertion or samlp:Response) with an
 * enveloped RSA-SHA256 signature: exclusive c14n, SHA-256 digest, a Reference to
 * the root's ID, the certificate in KeyInfo, placed right after the root's Issuer
 * as the schema's sequence requires (saml-core §5.4.1, §2.3.3, §3.2.2).
 */
export function signRootElement(xml: string, key: SigningKey): string {
  const keyInfo = `<ds:X509Data><ds:X509Certificate>${key.certBase64}</ds:X509Certificate></ds:X509Data>`;
  const sig = new SignedXml({
    privateKey: key.privateKey,
    signatureAlgorithm: SIGNATURE_ALGORITHM,
    canonicalizationAlgorithm: EXC_C14N,
    getKeyInfoContent: () => keyInfo,
  });
  sig.addReference({ xpath: '/*', transforms: [ENVELOPED, EXC_C14N], digestAlgorithm: DIGEST_ALGORITHM });
  sig.computeSignature(xml, {
    prefix: 'ds',
    location: { reference: "/*/*[local-name(.)='Issuer']", action: 'after' },
  });
  return sig.getSignedXml();
}

/**
 * The same enveloped signature as `signRootElement`, for a document we hold as structure (canonical-xml.ts):
 * its exclusive canonical form is written directly instead of parsed back, so a signature costs one SHA-256
 * digest and one RSA signature rather than a DOM parse, XPath, canonicalization and reserialization
 * (xml-crypto spends about three times the RSA signature on those, issue 27). The root must carry an `ID`
 * attribute and have its Issuer first; the Signature goes right after it, as `signRootElement` places it.
 */
export function signElement(root: XmlElement, namespaces: Readonly<Record<string, string>>, key: SigningKey): string {
  const id = root.attributes?.find(([name]) => name === 'ID')?.[1];
  if (!id || !/^[A-Za-z_][\w.-]*$/.test(id)) throw new Error('signElement needs an xs:ID attribute on the root');
  if (!root.children?.[0]?.name.endsWith(':Issuer')) throw new Error('signElement needs the Issuer as the first child');
  const digest = createHash('sha256').update(canonicalXml(root, namespaces)).digest('base64');
  const signedInfo = (declaration: string) =>
    `<ds:SignedInfo${declaration}><ds:CanonicalizationMethod Algorithm="${EXC_C14N}"></ds:CanonicalizationMethod>` +
    `<ds:SignatureMethod Algorithm="${SIGNATURE_ALGORITHM}"></ds:SignatureMethod><ds:Reference URI="#${id}"><ds:Transforms>` +
    `<ds:Transform Algorithm="${ENVELOPED}"></ds:Transform><ds:Transform Algorithm="${EXC_C14N}"></ds:Transform></ds:Transforms>` +
    `<ds:DigestMethod Algorithm="${DIGEST_ALGORITHM}"></ds:DigestMethod><ds:DigestValue>${digest}</ds:DigestValue></ds:Reference></ds:SignedInfo>`;
  // Canonical SignedInfo: exclusive c14n renders the ds prefix on it, the outermost element of the subset.
  const signatureValue = sign('sha256', Buffer.from(signedInfo(` xmlns:ds="${NS.dsig}"`)), key.privateKey).toString('base64');
  const signature =
    `<ds:Signature xmlns:ds="${NS.dsig}">${signedInfo('')}<ds:SignatureValue>${signatureValue}</ds:SignatureValue>` +
    `<ds:KeyInfo><ds:X509Data><ds:X509Certificate>${key.certBase64}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></ds:Signature>`;
  return writeXml(root, namespaces, signature);
}
