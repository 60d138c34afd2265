import { satisfiesRequested } from './authn-context';

const AC = 'urn:oasis:names:tc:SAML:2.0:ac:classes:';
const ppt = `${AC}PasswordProtectedTransport`;
const ask = (comparison: 'exact' | 'minimum' | 'better' | 'maximum', ...classes: string[]) => ({
  comparison,
  classRefs: classes.map((c) => `${AC}${c}`),
  declRefs: [],
});

describe('RequestedAuthnContext comparison (saml-core 3.3.2.2.1)', () => {
  it('is satisfied by anything when nothing is requested', () => {
    expect(satisfiesRequested(ppt, undefined)).toBe(true);
  });

  it.each([
    [ask('exact', 'PasswordProtectedTransport'), true],
    [ask('exact', 'Password'), false],
    [ask('exact', 'X509', 'PasswordProtectedTransport'), true],
    [ask('minimum', 'Password'), true],
    [ask('minimum', 'PasswordProtectedTransport'), true],
    [ask('minimum', 'X509'), false],
    [ask('minimum', 'X509', 'Password'), true],
    [ask('better', 'PasswordProtectedTransport'), false],
    [ask('better', 'Password'), true],
    [ask('maximum', 'Password'), false],
    [ask('maximum', 'PasswordProtectedTransport'), true],
    [ask('maximum', 'Smartcard'), true],
    [ask('minimum', 'SomethingUnknown'), false],
    [{ comparison: 'exact' as const, classRefs: [], declRefs: ['urn:decl'] }, false],
  ])('a password sign-in against %j: %s', (requested, expected) => {
    expect(satisfiesRequested(ppt, requested)).toBe(expected);
  });
});
