import { DOMParser } from '@xmldom/xmldom';
import { aFixtureIdp } from '../../../test/saml/support/fixture-idp';
import { buildIdpMetadata } from './idp-metadata';

describe('IdP metadata', () => {
  const idp = aFixtureIdp('metadata-test');
  const doc = new DOMParser().parseFromString(buildIdpMetadata(idp), 'text/xml');
  const md = 'urn:oasis:names:tc:SAML:2.0:metadata';

  it('names the entity and does not want signed AuthnRequests', () => {
    expect(doc.documentElement!.getAttribute('entityID')).toBe('https://idp.example.test/saml/metadata/');
    const idpDescriptor = doc.getElementsByTagNameNS(md, 'IDPSSODescriptor')[0];
    expect(idpDescriptor.getAttribute('WantAuthnRequestsSigned')).toBe('false');
    expect(idpDescriptor.getAttribute('protocolSupportEnumeration')).toBe('urn:oasis:names:tc:SAML:2.0:protocol');
  });

  it('publishes the signing certificate as a bare base64 body', () => {
    const certs = Array.from(doc.getElementsByTagNameNS('http://www.w3.org/2000/09/xmldsig#', 'X509Certificate'));
    expect(certs).toHaveLength(1);
    expect(certs[0].textContent).toBe(idp.certBase64);
    expect(certs[0].textContent).not.toMatch(/-----|\s/);
  });

  it('lists SSO endpoints for HTTP-Redirect and HTTP-POST and the NameID formats', () => {
    const sso = Array.from(doc.getElementsByTagNameNS(md, 'SingleSignOnService')).map((e) => [
      e.getAttribute('Binding'),
      e.getAttribute('Location'),
    ]);
    expect(sso).toEqual([
      ['urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', 'https://idp.example.test/saml/sso/'],
      ['urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', 'https://idp.example.test/saml/sso/'],
    ]);
    const formats = Array.from(doc.getElementsByTagNameNS(md, 'NameIDFormat')).map((e) => e.textContent);
    expect(formats).toContain('urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress');
  });
});
