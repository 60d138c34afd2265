import { KeyObject } from 'node:crypto';
import { SignedXml } from 'xml-crypto';

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
