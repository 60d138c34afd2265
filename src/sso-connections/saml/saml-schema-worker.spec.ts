import { UpstreamSamlIdp } from '../../../test/sso-connections/support/upstream-saml-idp';
import { spEndpoints } from './saml-connection-settings';
import { validateAgainstSamlSchema } from './saml-xml';

/**
 * The SAML 2.0 schema check run by the long-lived libxml2 worker (schema compiled once): genuine responses pass, responses
 * the schema forbids fail, and answers under concurrency belong to their own documents.
 */
describe('SAML schema validation in the libxml2 worker', () => {
  const idp = new UpstreamSamlIdp();
  const sp = spEndpoints('https://id.example.test', 'conn-a');
  let genuine: string;
  beforeAll(async () => {
    genuine = await idp.signedResponseXml(sp, { subject: 'okta-00u1', email: 'ada@example.com' }, { inResponseTo: '_req-1' });
  });
  const verdict = (xml: string) =>
    validateAgainstSamlSchema(xml).then(
      () => 'valid',
      (err: Error) => err.message,
    );

  it('accepts a genuine signed response', async () => {
    expect(await verdict(genuine)).toBe('valid');
  });

  it('refuses what the schema forbids: an unknown element, Issuer after Status, a missing Version, not XML', async () => {
    expect(await verdict(genuine.replace('<saml:Issuer>', '<saml:Bogus/><saml:Issuer>'))).toBe('ERR_SCHEMA_INVALID');
    const issuer = /<saml:Issuer>[^<]*<\/saml:Issuer>/.exec(genuine)![0];
    const status = /<samlp:Status>.*?<\/samlp:Status>/.exec(genuine)![0];
    expect(await verdict(genuine.replace(`${issuer}${status}`, `${status}${issuer}`))).toBe('ERR_SCHEMA_INVALID');
    expect(await verdict(genuine.replace(' Version="2.0"', ''))).toBe('ERR_SCHEMA_INVALID');
    expect(await verdict('<a>')).toBe('ERR_SCHEMA_INVALID');
  });

  it('answers each of many concurrent validations with its own verdict', async () => {
    const invalid = genuine.replace('<saml:Issuer>', '<saml:Bogus/><saml:Issuer>');
    const documents = Array.from({ length: 24 }, (_, i) => (i % 3 === 0 ? invalid : genuine));
    const verdicts = await Promise.all(documents.map(verdict));
    expect(verdicts).toEqual(documents.map((d) => (d === invalid ? 'ERR_SCHEMA_INVALID' : 'valid')));
  });
});
