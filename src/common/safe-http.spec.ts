import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isForbiddenAddress, MAX_RESPONSE_BYTES, postWebhook, unsafeTargetReason } from './safe-http';

describe('webhook targets (SSRF)', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
  ])('forbids %s', (address) => expect(isForbiddenAddress(address)).toBe(true));

  it.each(['93.184.216.34', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:1.1.1.1'])('allows %s', (address) =>
    expect(isForbiddenAddress(address)).toBe(false),
  );

  it.each([
    ['http://93.184.216.34/hook', /only https/],
    ['https://127.0.0.1/hook', /forbidden address/],
    ['https://[::1]/hook', /forbidden address/],
    ['https://[::ffff:127.0.0.1]/hook', /forbidden address/],
    ['https://169.254.169.254/latest/meta-data', /forbidden address/],
    ['https://10.0.0.5/hook', /forbidden address/],
    ['https://224.0.0.1/hook', /forbidden address/],
    ['https://localhost/hook', /forbidden address/],
    ['https://user:pw@93.184.216.34/hook', /credentials/],
  ])('refuses %s at creation', async (url, reason) => expect(await unsafeTargetReason(url, false)).toMatch(reason));

  it('accepts a public https address, and http or loopback only when private targets are allowed', async () => {
    expect(await unsafeTargetReason('https://93.184.216.34/hook', false)).toBeNull();
    expect(await unsafeTargetReason('http://127.0.0.1:9/hook', true)).toBeNull();
  });

  it('refuses a loopback target at delivery time too (a name that resolves there, or a literal)', async () => {
    const opts = { allowPrivate: false, timeoutMs: 1000 };
    await expect(postWebhook('https://localhost:9/hook', '{}', {}, opts)).rejects.toThrow(/forbidden address/);
    await expect(postWebhook('https://127.0.0.1:9/hook', '{}', {}, opts)).rejects.toThrow(/forbidden address/);
  });
});

describe('webhook HTTP', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/big') res.end('x'.repeat(1024 * 1024));
      else if (req.url === '/redirect') res.writeHead(302, { location: '/big' }).end();
      // '/hang': never answers
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const opts = { allowPrivate: true, timeoutMs: 300 };
  // Answers that do come: a timeout generous enough for a loaded machine (decision 0053).
  const patient = { allowPrivate: true, timeoutMs: 10_000 };

  it('reads at most 4 KB of the answer', async () => {
    const res = await postWebhook(`${base}/big`, '{}', {}, patient);
    expect(res.status).toBe(200);
    expect(res.body.length).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
  });

  it('does not follow a redirect', async () => {
    expect(await postWebhook(`${base}/redirect`, '{}', {}, patient)).toEqual({ status: 302, body: '' });
  });

  it('gives up after the timeout', async () => {
    await expect(postWebhook(`${base}/hang`, '{}', {}, opts)).rejects.toThrow(/timed out after 300 ms/);
  });
});
