import fc from 'fast-check';
import { aFixtureIdp } from '../../../test/saml/support/fixture-idp';
import { buildIdpMetadata } from './idp-metadata';
import type { IdpSettings } from '../idp/idp-settings';
import { buildLoginResponse, buildStatusResponse, LoginResponseInput } from './login-response.builder';
import { NAME_ID_FORMAT, STATUS } from './saml-urns';
import { certPemFromBase64, certificatesInMetadata, nodeSamlSp, TestSp, xmlsecVerify } from '../../../test/saml/support/saml-verifiers';
import { schemaValid } from '../../../test/saml/support/saml-schema';
import { aLoginInput } from '../../../test/saml/support/login-input';

const SP = { entityId: 'https://sp.example.com/metadata', acsUrl: 'https://sp.example.com/saml/acs' };
let idp: IdpSettings;
let metadataCert: string;

beforeAll(() => {
  idp = aFixtureIdp('unit-test idp');
  // Verifiers get only what the metadata publishes.
  metadataCert = certPemFromBase64(certificatesInMetadata(buildIdpMetadata(idp))[0]);
});

function spWith(signedAssertion = true): TestSp {
  return nodeSamlSp({ ...SP, idpSsoUrl: idp.ssoUrl, idpCert: metadataCert, signedAssertion });
}

function input(sp: TestSp, overrides: Partial<LoginResponseInput> = {}): LoginResponseInput {
  return aLoginInput(sp, overrides);
}

const b64 = (xml: string) => Buffer.from(xml).toString('base64');

describe('login Response', () => {
  it('is accepted by node-saml (signature, audience, InResponseTo, times) and yields the attributes', async () => {
    const sp = spWith();
    const built = buildLoginResponse(idp, input(sp));
    const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: b64(built.xml) });
    expect(profile?.nameID).toBe('ada@example.com');
    expect(profile?.nameIDFormat).toBe(NAME_ID_FORMAT.email);
    expect(profile?.sessionIndex).toBe('sess-1');
    expect(profile?.email).toBe('ada@example.com');
    expect(profile?.firstName).toBe('Ada');
    expect(profile?.['urn:oid:2.5.4.42']).toBe('Ada');
    expect(profile?.issuer).toBe(idp.entityId);
  });

  it('is refused by node-saml when the request id was never sent (InResponseTo)', async () => {
    const sp = spWith();
    const built = buildLoginResponse(idp, { ...input(sp), inResponseTo: '_never_sent' });
    await expect(sp.saml.validatePostResponseAsync({ SAMLResponse: b64(built.xml) })).rejects.toThrow(/InResponseTo/);
  });

  it('verifies with xmlsec1 using only the certificate from the metadata', async () => {
    const built = buildLoginResponse(idp, input(spWith()));
    const result = await xmlsecVerify(built.xml, metadataCert, 'Assertion');
    expect(result.output).toMatch(/OK/);
    expect(result.ok).toBe(true);
  });

  it('fails validation in node-saml and xmlsec1 when the NameID is changed after signing', async () => {
    const sp = spWith();
    const built = buildLoginResponse(idp, input(sp));
    const tampered = built.xml.replace('>ada@example.com</saml:NameID>', '>eve@example.com</saml:NameID>');
    expect(tampered).not.toBe(built.xml);
    await expect(sp.saml.validatePostResponseAsync({ SAMLResponse: b64(tampered) })).rejects.toThrow();
    expect((await xmlsecVerify(tampered, metadataCert, 'Assertion')).ok).toBe(false);
  });

  it('signs the Response instead of the Assertion when sign_assertions is off (never unsigned)', async () => {
    const sp = spWith(false);
    const built = buildLoginResponse(idp, input(sp, { signAssertion: false }));
    expect(built.xml).toMatch(/^<samlp:Response[^>]*><saml:Issuer>[^<]*<\/saml:Issuer><ds:Signature/);
    expect(built.xml).not.toMatch(/<saml:Assertion[^>]*>.*<ds:Signature/s);
    const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: b64(built.xml) });
    expect(profile?.nameID).toBe('ada@example.com');
    expect((await xmlsecVerify(built.xml, metadataCert, 'Response')).ok).toBe(true);
  });

  it('carries Destination, Recipient, Issuer, a 30 s NotBefore skew, a 5 min lifetime and an AuthnStatement', () => {
    const now = new Date('2030-01-01T12:00:00.000Z');
    const built = buildLoginResponse(idp, input(spWith(), { now, authnInstant: new Date('2030-01-01T11:59:00.000Z') }));
    expect(built.xml).toContain(`Destination="${SP.acsUrl}"`);
    expect(built.xml).toContain(`Recipient="${SP.acsUrl}"`);
    expect(built.xml).toContain(`<saml:Issuer>${idp.entityId}</saml:Issuer>`);
    expect(built.xml).toContain('NotBefore="2030-01-01T11:59:30.000Z" NotOnOrAfter="2030-01-01T12:05:00.000Z"');
    expect(built.xml).toContain('<saml:AuthnStatement AuthnInstant="2030-01-01T11:59:00.000Z" SessionIndex="sess-1">');
    expect(built.xml).toContain(`<saml:Audience>${SP.entityId}</saml:Audience>`);
    expect(built.xml).toContain(`ID="${built.assertionId}"`);
    expect(built.xml).toContain(`<ds:Reference URI="#${built.assertionId}">`);
    expect(built.xml).toContain('Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"');
    expect(built.xml).toContain('Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"');
    expect(built.xml).toContain('Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"');
    expect(built.xml).toContain(`<ds:X509Certificate>${idp.certBase64}</ds:X509Certificate>`);
  });

  it('keeps surrounding spaces, CR, LF and tabs in values', async () => {
    const sp = spWith();
    const built = buildLoginResponse(
      idp,
      input(sp, { nameId: ' padded@example.com ', attributes: [{ name: 'claim', value: '  two\r\nlines\t ' }] }),
    );
    const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: b64(built.xml) });
    expect([profile?.nameID, profile?.claim]).toEqual([' padded@example.com ', '  two\r\nlines\t ']);
  });

  it('escapes markup in every value and still validates', async () => {
    const sp = spWith();
    const evil = `x"/><saml:Attribute Name="role"><saml:AttributeValue>admin</saml:AttributeValue></saml:Attribute><x a="&amp;'`;
    const built = buildLoginResponse(idp, input(sp, { nameId: `${evil}@example.com`, attributes: [{ name: 'name<"&>', value: evil }] }));
    expect(built.xml).not.toContain('<saml:AttributeValue>admin');
    const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: b64(built.xml) });
    expect(profile?.nameID).toBe(`${evil}@example.com`);
    expect(profile?.['name<"&>']).toBe(evil);
    expect(profile?.role).toBeUndefined();
  });

  it('round-trips any text through escaping: node-saml reads back exactly the values we put in', async () => {
    const legal = (v: string) => v.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDFFF]/g, '');
    const text = fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }).filter((v) => legal(v).trim() !== '' && legal(v) === v);
    await fc.assert(
      fc.asyncProperty(text, text, async (nameId, value) => {
        const sp = spWith();
        const built = buildLoginResponse(idp, input(sp, { nameId, attributes: [{ name: 'claim', value }] }));
        const { profile } = await sp.saml.validatePostResponseAsync({ SAMLResponse: b64(built.xml) });
        expect(profile?.nameID).toBe(nameId);
        expect(profile?.claim).toBe(value);
      }),
      { numRuns: 25 },
    );
  });

  it('validates against the SAML 2.0 protocol schema', async () => {
    const signed = buildLoginResponse(idp, input(spWith()));
    const noAttributes = buildLoginResponse(idp, input(spWith(), { attributes: [], signAssertion: false }));
    await expect(schemaValid([signed.xml, noAttributes.xml])).resolves.toEqual([true, true]);
  });
});

describe('status Response', () => {
  it('answers NoPassive with a signed Response that node-saml reads as "not signed in"', async () => {
    const sp = spWith(false);
    const requestId = '_passive1';
    await sp.cache.saveAsync(requestId, new Date().toISOString());
    const built = buildStatusResponse(idp, { inResponseTo: requestId, acsUrl: SP.acsUrl, status: STATUS.noPassive });
    expect(built.xml).toContain(`<samlp:StatusCode Value="${STATUS.responder}"><samlp:StatusCode Value="${STATUS.noPassive}"/>`);
    expect(built.xml).not.toContain('<saml:Assertion');
    await expect(schemaValid([built.xml])).resolves.toEqual([true]);
    expect((await xmlsecVerify(built.xml, metadataCert, 'Response')).ok).toBe(true);
    // node-saml maps Responder/NoPassive to "no profile" rather than an error.
    await expect(sp.saml.validatePostResponseAsync({ SAMLResponse: b64(built.xml) })).resolves.toEqual({ profile: null, loggedOut: false });
  });
});
