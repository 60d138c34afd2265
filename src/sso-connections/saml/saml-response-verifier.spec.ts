import { base64, idpKeys, UpstreamSamlIdp, type UpstreamPerson } from '../../../test/sso-connections/support/upstream-saml-idp';
import { SamlConnectionSettings, spEndpoints } from './saml-connection-settings';
import { SamlRefusal, SamlRefusalReason } from './saml-refusal';
import { verifySamlResponse, VerifyInput } from './saml-response-verifier';

/**
 * The hostile inbound corpus against the verifier: every variant is crafted from a genuine
 * response of a samlify IdP holding its own key pair, and must be refused with its typed reason.
 */
describe('SAML response verification', () => {
  const idp = new UpstreamSamlIdp();
  const sp = spEndpoints('https://id.example.test', 'conn-a');
  const otherSp = spEndpoints('https://id.example.test', 'conn-b');
  const person: UpstreamPerson = {
    subject: 'okta-00u1',
    email: 'Ada@Example.com',
    firstName: 'Ada',
    lastName: 'Lovelace',
    groups: ['eng', 'ops'],
  };
  const requestId = '_req-1';

  const connection = (over: Partial<SamlConnectionSettings> = {}): SamlConnectionSettings => ({
    id: 'conn-a',
    workspaceId: 'ws',
    idpEntityId: idp.entityId,
    idpSsoUrl: idp.ssoUrl,
    idpCertificates: [idp.keys.certPem],
    allowUnsolicited: false,
    trustUpstreamMfa: false,
    attributeMapping: {},
    ...over,
  });
  const verify = (samlResponse: string, over: Partial<VerifyInput> = {}) =>
    verifySamlResponse({ samlResponse, connection: connection(), sp, pendingRequestIds: [requestId], now: new Date(), ...over });
  const refusalOf = async (promise: Promise<unknown>): Promise<SamlRefusalReason> => {
    try {
      await promise;
    } catch (err) {
      if (err instanceof SamlRefusal) return err.reason;
      throw err;
    }
    throw new Error('the response was accepted');
  };
  const genuineXml = (o = {}) => idp.signedResponseXml(sp, person, { inResponseTo: requestId, ...o });

  describe('accepts genuine responses', () => {
    it('reads the person from a response whose assertion is signed', async () => {
      const signIn = await verify(base64(await genuineXml()));
      expect(signIn).toMatchObject({
        subject: 'okta-00u1',
        email: 'ada@example.com',
        emailVerified: true,
        names: { first: 'Ada', last: 'Lovelace' },
        groups: ['eng', 'ops'],
        upstreamMfa: false,
        inResponseTo: requestId,
      });
      expect(signIn.replayableUntil.getTime()).toBeGreaterThan(Date.now());
    });

    it('accepts a response signed over the Response only, and one signed twice', async () => {
      await expect(verify(base64(await genuineXml({ signResponse: true, signAssertion: false })))).resolves.toMatchObject({
        subject: 'okta-00u1',
      });
      await expect(verify(base64(await genuineXml({ signResponse: true })))).resolves.toMatchObject({ subject: 'okta-00u1' });
    });

    it('verifies with the second certificate while the IdP rolls its key over', async () => {
      const rolled = new UpstreamSamlIdp(idp.entityId, idp.ssoUrl, idpKeys(true));
      const response = await rolled.signedResponse(sp, person, { inResponseTo: requestId });
      await expect(
        verify(response, { connection: connection({ idpCertificates: [idp.keys.certPem, rolled.keys.certPem] }) }),
      ).resolves.toMatchObject({
        subject: 'okta-00u1',
      });
      expect(await refusalOf(verify(response))).toBe('signature_invalid');
    });

    it('takes the subject from the configured immutable attribute and maps renamed attributes', async () => {
      const response = await idp.signedResponse(
        sp,
        { ...person, attributes: { objectid: ['f00d-1'], mail2: ['ada@corp.example'] } },
        { inResponseTo: requestId, nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified' },
      );
      const signIn = await verify(response, {
        connection: connection({ subjectAttribute: 'objectid', attributeMapping: { email: 'mail2' } }),
      });
      expect(signIn).toMatchObject({ subject: 'f00d-1', email: 'ada@corp.example' });
    });

    it('counts a two-factor authentication context as upstream MFA only where the connection trusts it', async () => {
      const mfa = await idp.signedResponse(sp, { ...person, authnClass: 'https://refeds.org/profile/mfa' }, { inResponseTo: requestId });
      expect((await verify(mfa, { connection: connection({ trustUpstreamMfa: true }) })).upstreamMfa).toBe(true);
      const again = await idp.signedResponse(sp, { ...person, authnClass: 'https://refeds.org/profile/mfa' }, { inResponseTo: requestId });
      expect((await verify(again)).upstreamMfa).toBe(false);
    });

    it('accepts an IdP-initiated response only where the connection allows it', async () => {
      const unsolicited = await idp.signedResponse(sp, person, { inResponseTo: null });
      expect(await refusalOf(verify(unsolicited, { pendingRequestIds: [] }))).toBe('unsolicited_response');
      await expect(
        verify(unsolicited, { pendingRequestIds: [], connection: connection({ allowUnsolicited: true }) }),
      ).resolves.toMatchObject({
        inResponseTo: null,
      });
    });
  });

  describe('refuses the hostile corpus with typed reasons', () => {
    it('refuses an unsigned response', async () => {
      expect(await refusalOf(verify(base64(idp.responseXml(sp, person, { inResponseTo: requestId }))))).toBe('signature_invalid');
    });

    it('refuses a response signed by another key', async () => {
      const stranger = new UpstreamSamlIdp(idp.entityId, idp.ssoUrl, idpKeys(true));
      expect(await refusalOf(verify(await stranger.signedResponse(sp, person, { inResponseTo: requestId })))).toBe('signature_invalid');
    });

    it('refuses a signed assertion whose NameID was altered', async () => {
      const xml = (await genuineXml()).replace('>okta-00u1<', '>okta-admin<');
      expect(await refusalOf(verify(base64(xml)))).toBe('signature_invalid');
    });

    it('refuses a signed Response whose assertion was altered', async () => {
      const xml = (await genuineXml({ signResponse: true, signAssertion: false })).replace('Ada@Example.com', 'boss@example.com');
      expect(await refusalOf(verify(base64(xml)))).toBe('signature_invalid');
    });

    it('refuses XSW: a forged assertion placed before the genuine signed one', async () => {
      const xml = await genuineXml();
      const genuine = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
      const forged = idp.responseXml(sp, { ...person, subject: 'okta-admin' }, { inResponseTo: requestId });
      const forgedAssertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(forged)![0];
      expect(await refusalOf(verify(base64(xml.replace(genuine, forgedAssertion + genuine))))).toBe('signature_invalid');
    });

    it('refuses XSW: the genuine assertion hidden in the forged one’s SubjectConfirmationData', async () => {
      const xml = await genuineXml();
      const genuine = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
      const forged = /<saml:Assertion[\s\S]*<\/saml:Assertion>/
        .exec(idp.responseXml(sp, { ...person, subject: 'okta-admin' }, { inResponseTo: requestId }))![0]
        .replace(/(<saml:SubjectConfirmationData[^>]*)\/>/, `$1>${genuine}</saml:SubjectConfirmationData>`);
      expect(await refusalOf(verify(base64(xml.replace(genuine, forged))))).toBe('signature_invalid');
    });

    it('refuses XSW: the genuine signed Response wrapped inside a forged one', async () => {
      const genuine = (await genuineXml({ signResponse: true, signAssertion: false })).replace(/^<\?xml[^>]*>/, '');
      const forged = idp.responseXml(sp, { ...person, subject: 'okta-admin' }, { inResponseTo: requestId });
      const wrapped = forged.replace('<samlp:Status>', `<samlp:Extensions>${genuine}</samlp:Extensions><samlp:Status>`);
      expect(await refusalOf(verify(base64(wrapped)))).toBe('signature_invalid');
    });

    it('refuses XSW: the genuine signed assertion moved into an Extensions element, a forged one in its place', async () => {
      const xml = await genuineXml();
      const genuine = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(xml)![0];
      const forged = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(
        idp.responseXml(sp, { ...person, subject: 'okta-admin' }, { inResponseTo: requestId }),
      )![0];
      const moved = xml.replace(genuine, forged).replace('<samlp:Status>', `<samlp:Extensions>${genuine}</samlp:Extensions><samlp:Status>`);
      expect(await refusalOf(verify(base64(moved)))).toBe('signature_invalid');
    });

    it('refuses a genuine assertion signature moved up to the Response, where it no longer covers the element that holds it', async () => {
      const xml = await genuineXml();
      const signature = /<(\w+:)?Signature[\s\S]*<\/(\w+:)?Signature>/.exec(xml)![0];
      const issuer = /<saml:Issuer>[^<]*<\/saml:Issuer>/.exec(xml)![0];
      const moved = xml.replace(signature, '').replace(issuer, issuer + signature);
      expect(moved.indexOf(signature)).toBeLessThan(moved.indexOf('<saml:Assertion'));
      expect(await refusalOf(verify(base64(moved)))).toBe('signature_invalid');
    });

    it('refuses XSW: another element carrying the signed assertion’s ID', async () => {
      const xml = await genuineXml();
      const id = /<saml:Assertion[^>]* ID="([^"]+)"/.exec(xml)![1];
      for (const name of ['ID', 'Id', 'id']) {
        const twin = xml.replace(
          '<samlp:Status>',
          `<samlp:Extensions><x:Twin xmlns:x="urn:x" ${name}="${id}"/></samlp:Extensions><samlp:Status>`,
        );
        expect(await refusalOf(verify(base64(twin)))).toBe('signature_invalid');
      }
    });

    it('refuses a signature anywhere but on the Response or its assertion', async () => {
      const xml = await genuineXml();
      const signature = /<(\w+:)?Signature[\s\S]*<\/(\w+:)?Signature>/.exec(xml)![0];
      const stray = xml.replace('<samlp:Status>', `<samlp:Extensions>${signature}</samlp:Extensions><samlp:Status>`);
      expect(await refusalOf(verify(base64(stray)))).toBe('signature_invalid');
    });

    it('refuses a comment inside the NameID (the signature still verifies; the reader would see another name)', async () => {
      const trick = await idp.signedResponseXml(sp, { ...person, subject: 'admin.evil' }, { inResponseTo: requestId });
      expect(await refusalOf(verify(base64(trick.replace('>admin.evil<', '>admin<!---->.evil<'))))).toBe('malformed_response');
    });

    it('refuses DTDs and entity payloads before parsing', async () => {
      const xml = (await genuineXml()).replace(/^<\?xml[^>]*>/, '');
      const withEntity = `<!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>${xml.replace('>okta-00u1<', '>&x;<')}`;
      expect(await refusalOf(verify(base64(withEntity)))).toBe('malformed_response');
      const billionLaughs = `<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>${xml}`;
      expect(await refusalOf(verify(base64(billionLaughs)))).toBe('malformed_response');
    });

    it('refuses what is not a SAML response: garbage, not base64, too large, another element', async () => {
      expect(await refusalOf(verify('not base64 !!'))).toBe('malformed_response');
      expect(await refusalOf(verify(base64('<a>')))).toBe('malformed_response');
      expect(await refusalOf(verify('A'.repeat(300_000)))).toBe('malformed_response');
      expect(await refusalOf(verify(base64('<x:Other xmlns:x="urn:x"/>')))).toBe('malformed_response');
      expect(await refusalOf(verify(undefined as unknown as string))).toBe('malformed_response');
    });

    it('refuses a response for another audience (another connection of the same IdP)', async () => {
      expect(
        await refusalOf(
          verify(await idp.signedResponse(otherSp, person, { inResponseTo: requestId, recipient: sp.acsUrl, destination: sp.acsUrl })),
        ),
      ).toBe('audience_mismatch');
    });

    it('refuses a response addressed to another endpoint', async () => {
      expect(await refusalOf(verify(await idp.signedResponse(sp, person, { inResponseTo: requestId, destination: otherSp.acsUrl })))).toBe(
        'destination_mismatch',
      );
      expect(await refusalOf(verify(await idp.signedResponse(sp, person, { inResponseTo: requestId, recipient: otherSp.acsUrl })))).toBe(
        'destination_mismatch',
      );
    });

    it('refuses a response whose issuer is not the connection’s IdP', async () => {
      expect(
        await refusalOf(
          verify(await idp.signedResponse(sp, person, { inResponseTo: requestId, issuer: 'https://other-idp.example.test' })),
        ),
      ).toBe('issuer_mismatch');
    });

    it('refuses an expired response and one not valid yet, beyond the clock skew', async () => {
      const past = new Date(Date.now() - 10 * 60_000);
      expect(
        await refusalOf(
          verify(
            await idp.signedResponse(sp, person, {
              inResponseTo: requestId,
              notBefore: past,
              notOnOrAfter: new Date(Date.now() - 3 * 60_000),
            }),
          ),
        ),
      ).toBe('response_expired');
      expect(
        await refusalOf(
          verify(await idp.signedResponse(sp, person, { inResponseTo: requestId, notBefore: new Date(Date.now() + 5 * 60_000) })),
        ),
      ).toBe('response_expired');
      // Within the skew: accepted.
      await expect(
        verify(await idp.signedResponse(sp, person, { inResponseTo: requestId, notOnOrAfter: new Date(Date.now() - 30_000) })),
      ).resolves.toBeDefined();
    });

    it('refuses an answer to a request this browser did not start', async () => {
      const response = await idp.signedResponse(sp, person, { inResponseTo: '_someone-elses' });
      expect(await refusalOf(verify(response))).toBe('state_mismatch');
      expect(await refusalOf(verify(response, { pendingRequestIds: [] }))).toBe('state_mismatch');
    });

    it('refuses an unsolicited response on a connection that does not allow them', async () => {
      expect(await refusalOf(verify(await idp.signedResponse(sp, person, { inResponseTo: null })))).toBe('unsolicited_response');
    });

    it('reports the IdP’s own failure status as upstream_error', async () => {
      const failed = await idp.signedResponse(sp, person, {
        inResponseTo: requestId,
        statusCode: 'urn:oasis:names:tc:SAML:2.0:status:Responder',
      });
      expect(await refusalOf(verify(failed))).toBe('upstream_error');
    });

    it('refuses a response without a usable subject', async () => {
      const emailOnly = await idp.signedResponse(sp, person, {
        inResponseTo: requestId,
        nameIdFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
      });
      expect(await refusalOf(verify(emailOnly))).toBe('subject_missing');
    });
  });
});
