import { deflateRawSync } from 'node:zlib';
import { createTestApp, TestApp } from '../support/app';
import { aDeveloper, aWorkspace, TestDeveloper, TestWorkspace } from '../support/factories';
import { aRegisteredSp, auditEvents, authorizePath, craftedRequest } from './support/saml-sso.helpers';
import { samlEnv } from './support/saml-env';

describe('SAML SSO refusals', () => {
  let t: TestApp;
  let dev: TestDeveloper;
  let ws: TestWorkspace;
  beforeAll(async () => {
    t = await createTestApp(samlEnv());
    dev = await aDeveloper(t);
    ws = await aWorkspace(t, dev);
  });
  afterAll(() => t.close());

  /** saml_sso_unattributed_failures_total{reason} as /metrics shows it (0 before the first). */
  async function unattributed(reason: string): Promise<number> {
    const metrics = await t.http().get('/metrics').expect(200);
    const line = new RegExp(`^saml_sso_unattributed_failures_total\\{reason="${reason}"\\} (\\d+)$`, 'm').exec(metrics.text);
    return line ? Number(line[1]) : 0;
  }

  const auditRowsOf = async (requestId: string) =>
    (await t.dataSource.query(`SELECT 1 FROM audit_events WHERE request_id = $1`, [requestId])) as unknown[];

  it('answers 400 with an HTML page for an unknown Issuer, counted in /metrics and kept out of the audit table', async () => {
    const before = await unattributed('unknown_sp');
    const res = await t.http().get(craftedRequest('https://nobody.example.test/metadata')).expect(400);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('No service provider is registered with the entity id https://nobody.example.test/metadata');
    // No workspace to file it under, and anyone can send it: no row, a counter (and one log line).
    expect(await auditRowsOf(res.headers['x-request-id'])).toEqual([]);
    expect(await unattributed('unknown_sp')).toBe(before + 1);
  });

  it('refuses an ACS URL that differs from the registered one and records saml_sso_failure', async () => {
    const sp = await aRegisteredSp(t, dev, ws);
    const res = await t
      .http()
      .get(craftedRequest(sp.entityId, { acsUrl: 'https://attacker.example.test/acs' }))
      .expect(400);
    expect(res.text).toContain('does not match the registered one');
    expect(res.text).not.toContain('SAMLResponse');
    const failures = await auditEvents(t, dev, ws, 'saml_sso_failure');
    expect(failures.find((e) => e.target_id === sp.id)).toMatchObject({
      severity: 'warn',
      actor_type: 'anonymous',
      metadata: expect.objectContaining({
        reason: 'acs_mismatch',
        requested_acs_url: 'https://attacker.example.test/acs',
        registered_acs_url: sp.acsUrl,
      }),
    });
  });

  it('uses the registered ACS URL when the request names none', async () => {
    const sp = await aRegisteredSp(t, dev, ws);
    const res = await t.http().get(craftedRequest(sp.entityId)).expect(302);
    expect(res.headers.location).toMatch(/^\/auth\/login\//);
    // The parked request's ticket: HttpOnly, Lax, and scoped to / (the hosted login reads it to name the SP), as docs/saml.md says.
    const ticket = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('saml_sso='));
    expect(ticket).toMatch(/; Path=\/;/);
    expect(ticket).toMatch(/HttpOnly/);
    expect(ticket).toMatch(/SameSite=Lax/);
  });

  it('refuses an inactive SP with 400', async () => {
    const sp = await aRegisteredSp(t, dev, ws, { is_active: false });
    const res = await t
      .http()
      .get((await authorizePath(sp)).path)
      .expect(400);
    expect(res.text).toContain('is disabled');
    const failures = await auditEvents(t, dev, ws, 'saml_sso_failure');
    expect(failures.find((e) => e.target_id === sp.id)?.metadata.reason).toBe('sp_inactive');
  });

  it('refuses a request addressed to another IdP (Destination)', async () => {
    const sp = await aRegisteredSp(t, dev, ws);
    const res = await t
      .http()
      .get(craftedRequest(sp.entityId, { attrs: ' Destination="https://other-idp.example.test/sso"' }))
      .expect(400);
    expect(res.text).toContain('Destination');
  });

  it('refuses a DOCTYPE/entity payload without expanding it', async () => {
    const sp = await aRegisteredSp(t, dev, ws);
    const res = await t
      .http()
      .get(
        craftedRequest(sp.entityId, {
          prefix:
            '<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY x SYSTEM "file:///etc/passwd">]>',
          body: `<saml:Issuer>${sp.entityId}&b;&x;</saml:Issuer>`,
        }),
      )
      .expect(400);
    expect(res.text).toContain('DTD');
    expect(res.text).not.toMatch(/aaaaaaaaaaaaaaaaaaaa|root:/);
  });

  it('keeps unreadable requests out of the audit table and counts them in /metrics', async () => {
    const before = await unattributed('malformed_request');
    const res = await t.http().get('/saml/sso/?SAMLRequest=%25%25').expect(400);
    expect(await auditRowsOf(res.headers['x-request-id'])).toEqual([]);
    expect(await unattributed('malformed_request')).toBe(before + 1);
  });

  it('refuses a request that inflates past the limit', async () => {
    const sp = await aRegisteredSp(t, dev, ws);
    const res = await t
      .http()
      .get(craftedRequest(sp.entityId, { body: `<saml:Issuer>${sp.entityId}</saml:Issuer><!--${' '.repeat(2_000_000)}-->` }))
      .expect(400);
    expect(res.text).toContain('inflates past');
  });

  it('refuses a SAMLRequest parameter over the size limit before decoding', async () => {
    const res = await t
      .http()
      .get(`/saml/sso/?SAMLRequest=${'A'.repeat(13_000)}`)
      .expect(400);
    expect(res.text).toContain('larger than');
  });

  it('refuses a missing or garbled SAMLRequest', async () => {
    await t.http().get('/saml/sso/').expect(400);
    await t.http().get('/saml/sso/?SAMLRequest=%25%25').expect(400);
    const notDeflated = Buffer.from('<samlp:AuthnRequest/>').toString('base64');
    await t
      .http()
      .get(`/saml/sso/?SAMLRequest=${encodeURIComponent(notDeflated)}`)
      .expect(400);
  });

  it('ignores an inbound signature (SigAlg, Signature) rather than rejecting the parameters', async () => {
    const sp = await aRegisteredSp(t, dev, ws);
    const path = craftedRequest(sp.entityId);
    await t
      .http()
      .get(`${path}&SigAlg=http%3A%2F%2Fwww.w3.org%2F2001%2F04%2Fxmldsig-more%23rsa-sha256&Signature=bm90IGEgc2lnbmF0dXJl`)
      .expect(302);
  });

  it('refuses a response binding other than HTTP-POST', async () => {
    const sp = await aRegisteredSp(t, dev, ws);
    await t
      .http()
      .get(craftedRequest(sp.entityId, { attrs: ' ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Artifact"' }))
      .expect(400);
  });

  it('answers the finish step without a parked request with an explanatory page', async () => {
    const res = await t.http().get('/saml/sso/finish/').expect(400);
    expect(res.text).toContain('expired');
  });

  it('keeps deflate output limits independent of the compressed size (sanity of the fixture)', () => {
    expect(deflateRawSync(Buffer.from(' '.repeat(2_000_000))).length).toBeLessThan(12 * 1024);
  });
});

describe('SAML SSO without IdP configuration', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp({ ...samlEnv(), SAML_IDP_CERT_PEM: '', SAML_IDP_ENTITY_ID: '' })));
  afterAll(() => t.close());

  it('answers 503 with an explanation on /saml/sso/ and serves no Response', async () => {
    const res = await t.http().get(craftedRequest('https://sp.example.test/metadata')).expect(503);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.text).toContain('SAML_IDP_ENTITY_ID, SAML_IDP_CERT_PEM');
    expect(res.text).not.toContain('SAMLResponse');
    await t.http().get('/saml/sso/finish/').expect(503);
  });
});
