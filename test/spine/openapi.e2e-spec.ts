import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestApp, TestApp } from '../support/app';

describe('OpenAPI description', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('serves the committed openapi.json unchanged (run `npm run openapi:write` after changing routes)', async () => {
    const served = await t.http().get('/openapi.json').expect(200);
    const committed = JSON.parse(readFileSync(join(__dirname, '../../openapi.json'), 'utf8')) as unknown;
    expect(served.body).toEqual(committed);
  });

  it('serves the interactive docs at /docs', async () => {
    const res = await t.http().get('/docs').redirects(1).expect(200);
    expect(res.text).toContain('swagger');
  });
});
