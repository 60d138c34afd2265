import { createTestApp, TestApp } from '../support/app';

const hrefs = (html: string) => [...html.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1].replace(/&amp;/g, '&'));
const images = (html: string) => [...html.matchAll(/<img src="([^"]+)"/g)].map((m) => m[1]);

/** The landing page's Quickstart link, followed as a browser would: HTML pages, working links, images that load. */
describe('the docs served from the landing page', () => {
  let t: TestApp;
  beforeAll(async () => (t = await createTestApp()));
  afterAll(() => t.close());

  it('links the quickstart as an HTML page, not raw markdown', async () => {
    const landing = await t.http().get('/').expect(200);
    const link = /<a href="([^"]+)">Quickstart<\/a>/.exec(landing.text)?.[1];
    expect(link).toBe('/guide/quickstart');
    const page = await t.http().get(link!).expect(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).toContain('<h1>Quickstart</h1>');
    expect(page.text).toMatch(/<pre><code class="language-bash">/);
    expect(page.text).not.toContain('```');
    expect(page.text).not.toMatch(/\]\([^)]*\.md\)/);
  });

  it('has no dead link and no missing image on any page reachable from the quickstart', async () => {
    const seen = new Set<string>(['/guide/quickstart']);
    const queue = ['/guide/quickstart'];
    const broken: string[] = [];
    let imagesChecked = 0;
    while (queue.length) {
      const path = queue.shift()!;
      const page = await t.http().get(path);
      if (page.status !== 200) {
        broken.push(`${path}: ${page.status}`);
        continue;
      }
      for (const src of images(page.text)) {
        const image = await t.http().get(src);
        imagesChecked++;
        if (image.status !== 200 || !/^image\//.test(String(image.headers['content-type']))) {
          broken.push(`${path} -> image ${src}: ${image.status}`);
        }
      }
      for (const href of hrefs(page.text)) {
        if (/^[a-z]+:/i.test(href) || href.startsWith('#')) continue;
        const target = href.split('#')[0];
        if (seen.has(target)) continue;
        seen.add(target);
        if (target.startsWith('/guide/')) queue.push(target);
        else if ((await t.http().get(target)).status >= 400) broken.push(`${path} -> ${href}`);
      }
    }
    expect(broken).toEqual([]);
    expect(imagesChecked).toBeGreaterThan(0);
    expect(seen.size).toBeGreaterThan(5);
  });

  it('answers names outside docs/ with 404', async () => {
    for (const path of ['/guide/..%2Fpackage', '/guide/nope', '/guide/images/..%2F..%2Fpackage.json', '/guide/decisions/..%2Fquickstart']) {
      const res = await t.http().get(path);
      expect(res.status).toBe(404);
    }
  });

  it('answers the browser favicon request with a quiet, cacheable 204', async () => {
    const res = await t.http().get('/favicon.ico').expect(204);
    expect(res.headers['cache-control']).toBe('public, max-age=86400');
  });
});
