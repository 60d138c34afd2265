import { createTestApp } from '../support/app';
import { aDeveloper } from '../support/factories';

async function recordedIp(trustProxy: string): Promise<string> {
  const t = await createTestApp({ TRUST_PROXY: trustProxy });
  try {
    const dev = await aDeveloper(t);
    const ws = await t
      .http()
      .post('/e/v1/developer/workspaces/')
      .set(dev.auth)
      .set('X-Forwarded-For', '203.0.113.9, 10.0.0.1')
      .send({ name: 'ip' })
      .expect(201);
    const page = await t.http().get('/developer/audit/').query({ workspace_id: ws.body.id }).set(dev.auth).expect(200);
    return page.body.results[0].ip_address as string;
  } finally {
    await t.close();
  }
}

describe('client address', () => {
  it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
    expect(await recordedIp('false')).toBe('127.0.0.1');
  });

  it('takes the first X-Forwarded-For hop when TRUST_PROXY is set', async () => {
    expect(await recordedIp('true')).toBe('203.0.113.9');
  });
});
