import { createPrivateKey, sign } from 'node:crypto';
import { SignedXml } from 'xml-crypto';

/**
 * The baseline of the SAML benchmark (issue 5): xml-crypto signing a typical
 * ~3 KB assertion with the private key passed as PEM text, as a naive IdP does.
 */
export function typicalAssertion(): string {
  let attrs = '';
  for (let i = 0; i < 10; i++) {
    attrs += `<saml:Attribute Name="urn:oid:1.3.6.1.4.1.5923.1.1.1.${i}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:uri"><saml:AttributeValue xsi:type="xs:string">value-${i}-abcdefghijklmnopqrstuvwxyz</saml:AttributeValue></saml:Attribute>`;
  }
  return (
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xs="http://www.w3.org/2001/XMLSchema" ID="_a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2" Version="2.0" IssueInstant="2030-01-01T12:00:00.000Z">` +
    `<saml:Issuer>https://idp.example.com/saml/metadata/</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">ada@example.com</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData InResponseTo="_req0123456789" NotOnOrAfter="2030-01-01T12:05:00.000Z" Recipient="https://sp.example.com/saml/acs"/></saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="2030-01-01T11:59:30.000Z" NotOnOrAfter="2030-01-01T12:05:00.000Z"><saml:AudienceRestriction><saml:Audience>https://sp.example.com/metadata</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="2030-01-01T11:59:00.000Z" SessionIndex="_s0123456789"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement>${attrs}</saml:AttributeStatement></saml:Assertion>`
  );
}

export function signWithPemText(assertion: string, keyPem: string, certPem: string): string {
  const sig = new SignedXml({
    privateKey: keyPem,
    publicCert: certPem,
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  sig.addReference({
    xpath: "/*[local-name(.)='Assertion']",
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  sig.computeSignature(assertion, { location: { reference: "/*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' } });
  return sig.getSignedXml();
}

/** Signatures per second on this thread over `ms` milliseconds (after a warm-up). */
export function baselineRate(keyPem: string, certPem: string, ms = 4000): number {
  const assertion = typicalAssertion();
  for (let i = 0; i < 30; i++) signWithPemText(assertion, keyPem, certPem);
  let n = 0;
  const start = process.hrtime.bigint();
  const until = start + BigInt(ms) * 1_000_000n;
  while (process.hrtime.bigint() < until) {
    signWithPemText(assertion, keyPem, certPem);
    n++;
  }
  return n / (Number(process.hrtime.bigint() - start) / 1e9);
}

/**
 * The floor of SSO on one core (issue 27): RSA-SHA256 over a SignedInfo-sized input with a key parsed once
 * (`KeyObject`), signatures per second on this thread. No XML, no canonicalization: the bare signature.
 */
export function keyObjectSignRate(keyPem: string, ms = 2000): number {
  const key = createPrivateKey(keyPem);
  const signedInfo = Buffer.from(typicalAssertion().slice(0, 600));
  for (let i = 0; i < 30; i++) sign('sha256', signedInfo, key);
  let n = 0;
  const start = process.hrtime.bigint();
  const until = start + BigInt(ms) * 1_000_000n;
  while (process.hrtime.bigint() < until) {
    sign('sha256', signedInfo, key);
    n++;
  }
  return n / (Number(process.hrtime.bigint() - start) / 1e9);
}
