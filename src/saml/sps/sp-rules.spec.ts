import fc from 'fast-check';
import { DomainError } from '../../common/errors';
import { checkAcsUrl, checkAttributeMapping, checkNameId, checkRelayState } from './sp-rules';
import { importSpMetadata } from './sp-metadata-import';

const refused = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return err instanceof DomainError && err.code === 'validation_failed';
  }
  return false;
};

describe('SP registration rules', () => {
  it('accepts https ACS URLs and http only on loopback hosts', () => {
    expect(checkAcsUrl('https://sp.example.com/acs')).toBe('https://sp.example.com/acs');
    expect(checkAcsUrl('http://localhost:3000/acs')).toBe('http://localhost:3000/acs');
    expect(checkAcsUrl('http://127.0.0.1:3000/acs')).toBe('http://127.0.0.1:3000/acs');
    for (const bad of [
      'http://sp.example.com/acs',
      '/acs',
      'javascript:alert(1)',
      'https://u:p@sp.example.com/acs',
      'https://sp.example.com/acs#x',
      'ftp://sp.example.com/',
    ]) {
      expect(refused(() => checkAcsUrl(bad))).toBe(true);
    }
  });

  it('never accepts an ACS URL whose scheme is not http(s)', () => {
    fc.assert(
      fc.property(fc.webUrl(), fc.constantFrom('javascript', 'data', 'file', 'ftp', 'gopher'), (url, scheme) => {
        expect(refused(() => checkAcsUrl(url.replace(/^https?/, scheme)))).toBe(true);
      }),
    );
  });

  it('accepts only the allowed user field paths in attribute_mapping', () => {
    expect(checkAttributeMapping({ email: 'email', cn: 'display_name', uid: 'id', gn: 'first_name', sn: 'last_name' })).toBeDefined();
    expect(refused(() => checkAttributeMapping({ role: 'password_hash' }))).toBe(true);
    expect(refused(() => checkAttributeMapping({ x: 5 }))).toBe(true);
    expect(refused(() => checkAttributeMapping({ '': 'email' }))).toBe(true);
  });

  it('requires the email attribute for an emailAddress NameID', () => {
    expect(refused(() => checkNameId('urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress', 'id'))).toBe(true);
    expect(refused(() => checkNameId('urn:oasis:names:tc:SAML:2.0:nameid-format:persistent', 'id'))).toBe(false);
    for (const field of ['first_name', 'last_name', 'display_name', 'email']) {
      expect(refused(() => checkNameId('urn:oasis:names:tc:SAML:2.0:nameid-format:persistent', field))).toBe(true);
    }
    for (const field of ['first_name', 'last_name', 'display_name']) {
      expect(refused(() => checkNameId('urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified', field))).toBe(true);
    }
    expect(refused(() => checkNameId('urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified', 'email'))).toBe(false);
    expect(refused(() => checkNameId('urn:oasis:names:tc:SAML:2.0:nameid-format:transient', 'id'))).toBe(false);
  });

  it('treats an empty default_relay_state as none and requires an absolute URL otherwise', () => {
    expect(checkRelayState('')).toBeNull();
    expect(checkRelayState('https://app.example.com/')).toBe('https://app.example.com/');
    expect(refused(() => checkRelayState('/relative'))).toBe(true);
  });
});

describe('SP metadata import', () => {
  const md = (acs: string) =>
    `<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://sp.example.com/"><SPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">${acs}</SPSSODescriptor></EntityDescriptor>`;
  const post = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST';

  it('prefers the isDefault HTTP-POST endpoint, else the lowest index', () => {
    expect(
      importSpMetadata(
        md(
          `<AssertionConsumerService Binding="${post}" Location="https://sp.example.com/b" index="2"/><AssertionConsumerService Binding="${post}" Location="https://sp.example.com/a" index="1"/>`,
        ),
      ).acs_url,
    ).toBe('https://sp.example.com/a');
    expect(
      importSpMetadata(
        md(
          `<AssertionConsumerService Binding="${post}" Location="https://sp.example.com/a" index="1"/><AssertionConsumerService Binding="${post}" Location="https://sp.example.com/d" index="5" isDefault="true"/>`,
        ),
      ).acs_url,
    ).toBe('https://sp.example.com/d');
  });

  it('ignores non-POST endpoints and refuses documents that are not SP metadata', () => {
    const art = md(
      '<AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Artifact" Location="https://sp.example.com/art" index="0"/>',
    );
    expect(importSpMetadata(art)).toMatchObject({ sp_entity_id: 'https://sp.example.com/', acs_url: undefined });
    expect(refused(() => importSpMetadata('<!DOCTYPE x [<!ENTITY e "x">]><EntityDescriptor/>'))).toBe(true);
  });
});
