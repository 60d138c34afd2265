import { renderAutoPostPage } from './post-form.page';

describe('auto-submit POST page', () => {
  const page = renderAutoPostPage({
    action: 'https://sp.example.com/acs?a=1&b="2"',
    samlResponse: 'PHNhbWw+',
    relayState: '"><script>alert(1)</script>',
  });

  it('escapes every field', () => {
    expect(page.html).toContain('action="https://sp.example.com/acs?a=1&amp;b=&quot;2&quot;"');
    expect(page.html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(page.html).not.toContain('<script>alert(1)');
  });

  it('runs only its nonce-bearing script and forbids caching and framing', () => {
    const nonce = /script-src 'nonce-([^']+)'/.exec(page.headers['Content-Security-Policy'])![1];
    expect(page.html).toContain(`<script nonce="${nonce}">`);
    expect(page.headers['Cache-Control']).toBe('no-store');
    expect(page.headers['Content-Security-Policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['Content-Security-Policy']).not.toContain('form-action');
  });

  it('shows a Continue button for browsers without scripts', () => {
    expect(page.html).toMatch(/<button type="submit">Continue<\/button>/);
    expect(page.html).toContain('<noscript>');
  });

  it('omits RelayState when there is none and uses a fresh nonce per page', () => {
    const other = renderAutoPostPage({ action: 'https://sp.example.com/acs', samlResponse: 'x' });
    expect(other.html).not.toContain('RelayState');
    expect(other.headers['Content-Security-Policy']).not.toBe(page.headers['Content-Security-Policy']);
  });
});
