import { assertedClass, satisfiesRequested } from './authn-context';

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

describe('the class an assertion names (decision 0314)', () => {
  const refeds = { comparison: 'exact' as const, classRefs: ['https://refeds.org/profile/mfa'], declRefs: [] };
  const pwd = ['pwd'];
  const totp = ['pwd', 'otp', 'mfa'];
  const passkey = ['pwd', 'hwk', 'mfa'];

  it.each([
    [pwd, undefined, ppt],
    [totp, undefined, 'https://refeds.org/profile/mfa'],
    [pwd, refeds, null],
    [totp, refeds, 'https://refeds.org/profile/mfa'],
    [totp, ask('exact', 'TimeSyncToken'), `${AC}TimeSyncToken`],
    [passkey, ask('exact', 'TimeSyncToken'), null],
    [passkey, ask('exact', 'MobileTwoFactorContract'), `${AC}MobileTwoFactorContract`],
    [totp, ask('minimum', 'PasswordProtectedTransport'), ppt],
    [totp, ask('better', 'PasswordProtectedTransport'), 'https://refeds.org/profile/mfa'],
    [pwd, ask('better', 'PasswordProtectedTransport'), null],
    [totp, ask('exact', 'X509'), null],
    [totp, ask('maximum', 'Password'), null],
  ])('%j asked %j names %s', (amr, requested, expected) => {
    expect(assertedClass(amr, requested)).toBe(expected);
  });
});
