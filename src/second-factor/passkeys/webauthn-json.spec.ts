import { DomainError } from '../../common/errors';
import { authenticationResponse, keyAmr, registrationResponse, signedChallenge, userHandleOf, userIdOfHandle } from './webauthn-json';

const b64url = (s: string) => Buffer.from(s).toString('base64url');
const refused = (run: () => unknown) => {
  try {
    run();
  } catch (err) {
    return err instanceof DomainError ? err.code : String(err);
  }
  return 'accepted';
};

describe('WebAuthn JSON from the browser', () => {
  const assertion = {
    id: 'AVx9dK1m3Qw7Lr2ZbT4nUw',
    rawId: 'AVx9dK1m3Qw7Lr2ZbT4nUw',
    type: 'public-key',
    response: { clientDataJSON: b64url('{"challenge":"abc"}'), authenticatorData: 'SZYN5Yg', signature: 'MEUCIQ', userHandle: 'q1Ai' },
    clientExtensionResults: { anything: true },
  };

  it('keeps the fields the verifier needs and drops what it does not', () => {
    expect(authenticationResponse(assertion)).toEqual({ ...assertion, clientExtensionResults: {} });
    const registration = registrationResponse({
      ...assertion,
      response: { clientDataJSON: 'e30', attestationObject: 'o2Nm', transports: ['internal', 'hybrid'] },
    });
    expect(registration.response).toEqual({ clientDataJSON: 'e30', attestationObject: 'o2Nm', transports: ['internal', 'hybrid'] });
  });

  it('refuses shapes and sizes that are not a credential with invalid_passkey_response', () => {
    for (const bad of [
      null,
      'x',
      [],
      { ...assertion, type: 'password' },
      { ...assertion, rawId: 'other' },
      { ...assertion, id: 'not base64url!', rawId: 'not base64url!' },
      { ...assertion, response: { ...assertion.response, signature: 'x'.repeat(20_000) } },
      { ...assertion, response: { ...assertion.response, authenticatorData: 5 } },
    ]) {
      expect(refused(() => authenticationResponse(bad))).toBe('invalid_passkey_response');
    }
    expect(
      refused(() =>
        registrationResponse({ ...assertion, response: { clientDataJSON: 'e30', attestationObject: 'o2Nm', transports: ['pigeon'] } }),
      ),
    ).toBe('invalid_passkey_response');
  });

  it('reads the signed challenge from clientDataJSON', () => {
    expect(signedChallenge(b64url('{"type":"webauthn.get","challenge":"Xc3mQ0Lr7V"}'))).toBe('Xc3mQ0Lr7V');
    expect(refused(() => signedChallenge(b64url('not json')))).toBe('invalid_passkey_response');
    expect(refused(() => signedChallenge(b64url('{"challenge":"a/b"}')))).toBe('invalid_passkey_response');
  });

  it('maps an account to its user handle and back (16 bytes, no personal data)', () => {
    const id = '5b1c7e2a-9d4f-4a8b-b6e3-2f0d9c8a7b61';
    const handle = userHandleOf(id);
    expect(handle).toHaveLength(16);
    expect(userIdOfHandle(Buffer.from(handle).toString('base64url'))).toBe(id);
    expect(userIdOfHandle(b64url('short'))).toBeNull();
  });

  it('names a device-bound key hwk and a synced one swk (RFC 8176)', () => {
    expect(keyAmr('singleDevice')).toBe('hwk');
    expect(keyAmr('multiDevice')).toBe('swk');
  });
});
