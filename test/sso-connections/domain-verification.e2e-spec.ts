import { randomUUID } from 'node:crypto';
import { createTestApp, TestApp } from '../support/app';
import { aDeveloper, aWorkspace, TestDeveloper } from '../support/factories';
import { startDnsServer, TestDnsServer } from './support/dns-server';

interface DomainVerification {
  domain: string;
  status: 'pending' | 'verified';
  verified: boolean;
  verified_at: string | null;
  checked_at: string | null;
  txt_record_name: string;
  txt_record_value: string;
}

/**
 * Domain verification by DNS TXT (docs/sso-connections.md, "Domains and routing"): the service asks
 * a real DNS server on loopback (SSO_DNS_SERVERS) for the record the connection's view names; the
 * tests publish it, or not, as a domain's owner would.
 */
describe('SSO connections: verifying an email domain by DNS TXT', () => {
  let t: TestApp;
  let dns: TestDnsServer;
  let dev: TestDeveloper;
  let other: TestDeveloper;
  beforeAll(async () => {
    dns = await startDnsServer();
    t = await createTestApp({ SSO_DNS_SERVERS: dns.address });
    [dev, other] = [await aDeveloper(t), await aDeveloper(t)];
  });
  afterAll(async () => {
    await t.close();
    await dns.close();
  });

  /** A domain of its own per test: the verified-once rule spans every workspace of the database. */
  const aDomain = () => `acme-${randomUUID().slice(0, 8)}.example`;
  async function aConnection(owner: TestDeveloper, domains: string[]) {
    const ws = await aWorkspace(t, owner);
    const res = await t
      .http()
      .post('/developer/external-providers/')
      .set(owner.auth)
      .send({
        workspace_id: ws.id,
        name: 'Acme Okta',
        protocol: 'oidc',
        domains,
        oidc: { issuer: 'https://login.acme.example/', client_id: 'client-123', client_secret: 'an-upstream-secret' },
      })
      .expect(201);
    return { ws, id: res.body.id as string, records: res.body.domain_verifications as DomainVerification[] };
  }
  const verify = (owner: TestDeveloper, id: string, domain: string) =>
    t.http().post(`/developer/external-providers/${id}/domains/${domain}/verify`).set(owner.auth);
  const show = async (id: string) =>
    (await t.http().get(`/developer/external-providers/${id}/`).set(dev.auth).expect(200)).body
      .domain_verifications as DomainVerification[];
  const verificationAudits = async (workspaceId: string) =>
    (
      (
        await t
          .http()
          .get('/developer/audit/')
          .query({ workspace_id: workspaceId, event_type: 'external_provider_update' })
          .set(dev.auth)
          .expect(200)
      ).body.results as { metadata: Record<string, unknown>; actor_id: string }[]
    ).filter((e) => e.metadata.domain_verified);

  it('names the TXT record to publish, refuses until it is published, then marks the domain verified once, audited', async () => {
    const domain = aDomain();
    const { ws, id, records } = await aConnection(dev, [domain]);
    const [record] = records;
    expect(record).toEqual({
      domain,
      status: 'pending',
      verified: false,
      verified_at: null,
      checked_at: null,
      txt_record_name: `_idsvc-verification.${domain}`,
      txt_record_value: expect.stringMatching(/^idsvc-domain-verification=[A-Za-z0-9_-]{24}$/),
    });

    // Nothing published: 422 with what to publish, and the check is recorded.
    const missing = await verify(dev, id, domain).expect(422);
    expect(missing.body).toMatchObject({
      error: 'txt_record_not_found',
      details: { txt_record_name: record.txt_record_name, txt_record_value: record.txt_record_value, found: [] },
    });
    expect((await show(id))[0]).toMatchObject({ status: 'pending', verified_at: null, checked_at: expect.any(String) });

    // Other TXT records at the name (an old token, an SPF-like value) are not the proof, and are shown back.
    dns.publishTxt(record.txt_record_name, 'idsvc-domain-verification=someone-elses-token');
    const wrong = await verify(dev, id, domain).expect(422);
    expect(wrong.body.details.found).toEqual(['idsvc-domain-verification=someone-elses-token']);

    // Published (split into two character strings, as DNS providers do with long values): verified.
    const value = record.txt_record_value;
    dns.publishTxt(record.txt_record_name, value.slice(0, 10), value.slice(10));
    const verified = await verify(dev, id, domain.toUpperCase()).expect(200);
    expect(verified.body.id).toBe(id);
    expect(verified.body.domain_verifications[0]).toMatchObject({
      domain,
      status: 'verified',
      verified: true,
      verified_at: expect.any(String),
    });
    expect(await verificationAudits(ws.id)).toEqual([expect.objectContaining({ metadata: { domain_verified: domain }, actor_id: dev.id })]);

    // Again: the same answer without a second audit row; the verification survives an update that keeps the domain.
    await verify(dev, id, domain).expect(200);
    expect(await verificationAudits(ws.id)).toHaveLength(1);
    await t.http().patch(`/developer/external-providers/${id}/`).set(dev.auth).send({ name: 'Renamed' }).expect(200);
    expect((await show(id))[0]).toMatchObject({ status: 'verified', verified_at: verified.body.domain_verifications[0].verified_at });
  });

  it('verifies a domain for one workspace only: another cannot verify it with its own record, nor claim it anew', async () => {
    const domain = aDomain();
    const first = await aConnection(dev, [domain]);
    // A second workspace listed the domain before the first verified it: both pending is allowed.
    const second = await aConnection(other, [domain]);
    dns.publishTxt(first.records[0].txt_record_name, first.records[0].txt_record_value);
    dns.publishTxt(second.records[0].txt_record_name, second.records[0].txt_record_value);
    await verify(dev, first.id, domain).expect(200);

    const refused = await verify(other, second.id, domain).expect(409);
    expect(refused.body.error).toBe('domain_claimed');
    expect(
      (await t.http().get(`/developer/external-providers/${second.id}/`).set(other.auth).expect(200)).body.domain_verifications[0],
    ).toMatchObject({
      status: 'pending',
      verified_at: null,
    });
    // The second workspace may still edit its connection with the domain listed; a third cannot add it.
    await t
      .http()
      .patch(`/developer/external-providers/${second.id}/`)
      .set(other.auth)
      .send({ domains: [domain, aDomain()] })
      .expect(200);
    const third = await aWorkspace(t, other);
    const claim = await t
      .http()
      .post('/developer/external-providers/')
      .set(other.auth)
      .send({
        workspace_id: third.id,
        name: 'Copycat',
        protocol: 'oidc',
        domains: [domain],
        oidc: { issuer: 'https://x.example/', client_id: 'c', client_secret: 's' },
      })
      .expect(409);
    expect(claim.body).toMatchObject({ error: 'domain_claimed', details: { domains: [`${domain} is verified by another workspace`] } });
    expect(
      (await t.http().get('/developer/external-providers/').query({ workspace_id: third.id }).set(other.auth).expect(200)).body.results,
    ).toEqual([]);
  });

  it("answers 404 for another workspace's connection and for a domain the connection does not list, and verifies nothing", async () => {
    const domain = aDomain();
    const { id, records } = await aConnection(dev, [domain]);
    dns.publishTxt(records[0].txt_record_name, records[0].txt_record_value);
    expect((await verify(other, id, domain).expect(404)).body.error).toBe('not_found');
    await verify(dev, id, aDomain()).expect(404);
    await verify(dev, id, 'not a domain').expect(404);
    await verify(dev, id, 'x'.repeat(300)).expect(404);
    await verify(dev, randomUUID(), domain).expect(404);
    await verify(dev, 'not-a-uuid', domain).expect(404);
    expect((await show(id))[0]).toMatchObject({ status: 'pending', checked_at: null });
  });

  it('answers 503 dns_lookup_failed when the DNS fails, and leaves the domain pending', async () => {
    const domain = aDomain();
    const { id, records } = await aConnection(dev, [domain]);
    dns.failFor(records[0].txt_record_name);
    const res = await verify(dev, id, domain).expect(503);
    expect(res.body.error).toBe('dns_lookup_failed');
    expect((await show(id))[0]).toMatchObject({ status: 'pending', verified_at: null });
  }, 30000);
});
