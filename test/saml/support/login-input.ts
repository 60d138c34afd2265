import { AUTHN_CLASS } from '../../../src/saml/protocol/authn-context';
import type { LoginResponseInput } from '../../../src/saml/protocol/login-response.builder';
import { NAME_ID_FORMAT } from '../../../src/saml/protocol/saml-urns';
import type { TestSp } from './saml-verifiers';

/** The fields of a login Response for a fresh request of `sp` (its ID recorded in the SP's cache, as if sent). */
export function aLoginInput(sp: TestSp, overrides: Partial<LoginResponseInput> = {}): LoginResponseInput {
  const requestId = `_req${Math.random().toString(16).slice(2)}`;
  void sp.cache.saveAsync(requestId, new Date().toISOString());
  return {
    inResponseTo: requestId,
    acsUrl: sp.acsUrl,
    audience: sp.entityId,
    nameId: 'ada@example.com',
    nameIdFormat: NAME_ID_FORMAT.email,
    sessionIndex: 'sess-1',
    authnInstant: new Date(),
    authnContextClassRef: AUTHN_CLASS.passwordProtectedTransport,
    attributes: [
      { name: 'email', value: 'ada@example.com' },
      { name: 'firstName', value: 'Ada' },
      { name: 'urn:oid:2.5.4.42', value: 'Ada' },
    ],
    signAssertion: true,
    ...overrides,
  };
}
