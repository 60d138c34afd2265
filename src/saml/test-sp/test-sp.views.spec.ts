import { renderTestSpHome } from './test-sp.views';

describe('test SP pages', () => {
  it('makes every scrolling <pre> block reachable by keyboard and named for screen readers', () => {
    const page = renderTestSpHome({ baseUrl: 'http://localhost:3000', workspaceId: 'ws-1', samlOn: true, samlStatus: 'on' });
    const blocks = page.match(/<pre[^>]*>/g) ?? [];
    expect(blocks.length).toBeGreaterThan(0);
    for (const block of blocks) {
      expect(block).toContain('tabindex="0"');
      expect(block).toMatch(/aria-label="[^"]+"/);
    }
  });
});
