import { aFixtureIdp } from '../../../test/saml/support/fixture-idp';
import type { IdpSettings } from '../idp/idp-settings';
import { AUTHN_CLASS } from '../protocol/authn-context';
import { buildLoginResponse } from '../protocol/login-response.builder';
import { NAME_ID_FORMAT } from '../protocol/saml-urns';
import { Expectations, indentXml, inspectSamlResponse } from './inspect-response';

const SP = { entityId: 'http://localhost:3000/saml/test-sp/ws', acsUrl: 'http://localhost:3000/saml/test-sp/acs' };

const anIdp = () => aFixtureIdp('test-sp unit', 'http://localhost:3000', 'n'.repeat(48));

const idp = anIdp();
const other = anIdp();

function signedBy(settings: IdpSettings): string {
  return buildLoginResponse(settings, {
    inResponseTo: '_req1',
    acsUrl: SP.acsUrl,
    audience: SP.entityId,
    nameId: 'ada@example.com',
    nameIdFormat: NAME_ID_FORMAT.email,
    sessionIndex: 's1',
    authnInstant: new Date(),
    authnContextClassRef: AUTHN_CLASS.passwordProtectedTransport,
    attributes: [{ name: 'firstName', value: 'Ada' }],
    signAssertion: true,
  }).xml;
}

const expected = (): Expectations => ({
  idpCertPem: idp.certPem,
  idpEntityId: idp.entityId,
  acsUrl: SP.acsUrl,
  audience: SP.entityId,
  inResponseTo: '_req1',
  now: new Date(),
});
const b64 = (xml: string) => Buffer.from(xml).toString('base64');

describe('test SP response inspection', () => {
  it('accepts the IdP’s signed response and reads the subject and attributes', () => {
    const report = inspectSamlResponse(b64(signedBy(idp)), expected());
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.valid).toBe(true);
    expect(report.nameId).toBe('ada@example.com');
    expect(report.attributes).toEqual([{ name: 'firstName', values: ['Ada'] }]);
  });

  it('rejects an assertion altered after signing', () => {
    const report = inspectSamlResponse(b64(signedBy(idp).replace('ada@example.com', 'eve@example.com')), expected());
    expect(report.valid).toBe(false);
    expect(report.checks.find((c) => c.name.startsWith('Assertion signature'))?.ok).toBe(false);
  });

  it('rejects a response signed by another key, even though it carries that key in KeyInfo', () => {
    const report = inspectSamlResponse(b64(signedBy(other)), expected());
    expect(report.valid).toBe(false);
  });

  it('flags a response this browser did not ask for', () => {
    const report = inspectSamlResponse(b64(signedBy(idp)), { ...expected(), inResponseTo: undefined });
    expect(report.valid).toBe(false);
    expect(report.checks.find((c) => c.name.startsWith('InResponseTo'))?.ok).toBe(false);
  });

  it('indents XML for reading, keeping text elements on one line', () => {
    expect(indentXml('<a><b>x</b><c/></a>')).toBe('<a>\n  <b>x</b>\n  <c/>\n</a>');
  });
});
