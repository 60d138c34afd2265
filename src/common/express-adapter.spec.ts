import { Controller, Get, Module, Req } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { Express, Request } from 'express';
import { IncomingMessage, type Server } from 'node:http';
import request from 'supertest';
import { bornWithPrototype, SharedPrototypeExpressAdapter } from './express-adapter';

@Controller('probe')
class ProbeController {
  @Get(':id')
  probe(@Req() req: Request) {
    return { id: req.params.id, q: req.query.q ?? null, host: req.hostname, ip: req.ip };
  }
}

@Module({ controllers: [ProbeController] })
class ProbeModule {}

describe('SharedPrototypeExpressAdapter', () => {
  let app: NestExpressApplication;

  beforeAll(async () => {
    app = await NestFactory.create<NestExpressApplication>(ProbeModule, new SharedPrototypeExpressAdapter(), { logger: false });
    await app.init();
  });

  afterAll(() => app.close());

  it("builds each request and response on Express's own prototypes before Express sees them", async () => {
    const express = app.getHttpAdapter().getInstance() as Express;
    const seen: boolean[] = [];
    (app.getHttpServer() as Server).prependListener('request', (req, res) => {
      seen.push(Object.getPrototypeOf(req) === express.request, Object.getPrototypeOf(res) === express.response);
    });
    await request(app.getHttpServer()).get('/probe/1').expect(200);
    expect(seen).toEqual([true, true]);
  });

  it('serves requests exactly as the plain adapter does: params, query, Express request helpers, status and headers', async () => {
    const res = await request(app.getHttpServer()).get('/probe/abc?q=x').set('Host', 'example.test').expect(200);
    expect(res.body).toEqual({ id: 'abc', q: 'x', host: 'example.test', ip: expect.any(String) });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    await request(app.getHttpServer()).get('/missing').expect(404);
  });
});

describe('bornWithPrototype', () => {
  it('refuses a prototype that does not inherit from the base', () => {
    expect(() => bornWithPrototype(IncomingMessage, {})).toThrow(TypeError);
  });

  it('declines ES classes, which cannot be called on an existing object', () => {
    class Base {}
    expect(bornWithPrototype(Base, Object.create(Base.prototype) as object)).toBeUndefined();
  });
});
