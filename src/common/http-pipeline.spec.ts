import express from 'express';
import pino from 'pino';
import { Writable } from 'node:stream';
import request from 'supertest';
import { loadConfig } from '../config/config';
import { httpPipeline } from './http-pipeline';

function appWithPipeline(env: NodeJS.ProcessEnv = {}) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const log = pino({ level: 'info' }, sink);
  const app = express();
  app.use(httpPipeline(loadConfig(env), log));
  app.all('/echo', (req, res) => {
    res.json({ body: req.body ?? null, cookies: req.cookies, requestId: (req as express.Request & { id?: string }).id ?? null });
  });
  app.get('/health/live', (_req, res) => res.json({ status: 'ok' }));
  app.use((err: Error & { status?: number }, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(err.status ?? 400).json({ error: err.message });
  });
  return { app, lines };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('httpPipeline', () => {
  it('echoes a sane X-Request-Id and mints one otherwise, and sets it as req.id for handlers', async () => {
    const { app } = appWithPipeline();
    const kept = await request(app).get('/echo').set('X-Request-Id', 'client-id.1');
    expect(kept.headers['x-request-id']).toBe('client-id.1');
    expect(kept.body.requestId).toBe('client-id.1');
    const minted = await request(app).get('/echo').set('X-Request-Id', 'bad id with spaces');
    expect(minted.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("sends helmet's security headers on every response", async () => {
    const { app } = appWithPipeline();
    const res = await request(app).get('/echo');
    expect(res.headers['content-security-policy']).toContain("form-action 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['strict-transport-security']).toBeUndefined();
    const secure = await request(appWithPipeline({ COOKIE_SECURE: 'true' }).app).get('/echo');
    expect(secure.headers['strict-transport-security']).toContain('max-age=');
  });

  it('parses cookies, JSON and form bodies, and leaves the body undefined when there is none', async () => {
    const { app } = appWithPipeline();
    expect((await request(app).get('/echo').set('Cookie', 'sid=abc; csrftoken=x')).body.cookies).toEqual({ sid: 'abc', csrftoken: 'x' });
    expect((await request(app).get('/echo')).body).toMatchObject({ body: null, cookies: {} });
    expect((await request(app).post('/echo').send({ a: 1 })).body.body).toEqual({ a: 1 });
    expect((await request(app).post('/echo').set('Content-Type', 'application/scim+json').send('{"b":2}')).body.body).toEqual({ b: 2 });
    expect((await request(app).post('/echo').type('form').send('c=3')).body.body).toEqual({ c: '3' });
  });

  it('refuses malformed, oversized and over-deep JSON bodies', async () => {
    const { app } = appWithPipeline({ BODY_LIMIT: '1kb' });
    expect((await request(app).post('/echo').set('Content-Type', 'application/json').send('{"a":')).status).toBe(400);
    expect(
      (
        await request(app)
          .post('/echo')
          .send({ big: 'x'.repeat(2000) })
      ).status,
    ).toBe(413);
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = { d: deep };
    expect(
      (
        await request(app)
          .post('/echo')
          .send(deep as object)
      ).status,
    ).toBe(400);
  });

  it('writes one access-log line per request with id, method, path without query, status and latency; probes are not logged', async () => {
    const { app, lines } = appWithPipeline();
    await request(app).get('/echo?email=someone@example.com').set('X-Request-Id', 'r-1');
    await request(app).get('/health/live');
    await request(app).get('/missing');
    await flush();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: 30,
      req: { id: 'r-1', method: 'GET', path: '/echo' },
      res: { statusCode: 200 },
      msg: 'request completed',
    });
    expect(typeof lines[0].responseTime).toBe('number');
    expect(JSON.stringify(lines)).not.toContain('someone@example.com');
    expect(lines[1]).toMatchObject({ level: 40, req: { path: '/missing' }, res: { statusCode: 404 } });
  });
});
