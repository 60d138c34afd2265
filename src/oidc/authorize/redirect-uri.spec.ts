import { matchesRedirectUri, registeredRedirect } from './redirect-uri';

describe('matchesRedirectUri', () => {
  const registered = ['https://app.example.test/callback', 'http://127.0.0.1/native/cb', 'http://[::1]:8080/cb'];

  it('accepts a registered URI written exactly as registered', () => {
    expect(matchesRedirectUri(registered, 'https://app.example.test/callback')).toBe(true);
  });

  it.each([
    'https://app.example.test/callback/',
    'https://app.example.test/callback?x=1',
    'https://APP.example.test/callback',
    'https://app.example.test:443/callback',
    'https://app.example.test/callback#frag',
    'https://evil.example.test/callback',
    'http://app.example.test/callback',
  ])('refuses %s, which differs from every registered URI', (uri) => {
    expect(matchesRedirectUri(registered, uri)).toBe(false);
  });

  it('lets a loopback IP redirect URI use any port (RFC 8252 §7.3)', () => {
    expect(matchesRedirectUri(registered, 'http://127.0.0.1:51234/native/cb')).toBe(true);
    expect(matchesRedirectUri(registered, 'http://[::1]:9999/cb')).toBe(true);
  });

  it('keeps the path of a loopback URI exact and never extends the rule to localhost or https', () => {
    expect(matchesRedirectUri(registered, 'http://127.0.0.1:51234/native/cb/extra')).toBe(false);
    expect(matchesRedirectUri(['http://localhost/cb'], 'http://localhost:4000/cb')).toBe(false);
    expect(matchesRedirectUri(['https://127.0.0.1/cb'], 'https://127.0.0.1:4000/cb')).toBe(false);
  });
});

describe('registeredRedirect', () => {
  it('refuses a loopback URI that looks like a registered one but parses to another path', () => {
    expect(registeredRedirect(['http://127.0.0.1/cb'], 'http://127.0.0.1\\evil/cb')).toBeNull();
    expect(registeredRedirect(['http://127.0.0.1/cb'], 'http://127.0.0.1:8080\\evil/cb')).toBeNull();
    expect(registeredRedirect(['http://127.0.0.1/cb'], 'http://127.0.0.1/./cb/../evil')).toBeNull();
  });

  it('answers the address it compared: the loopback URI with the port the client asked for', () => {
    expect(registeredRedirect(['http://127.0.0.1/cb'], 'http://127.0.0.1:51234/cb')).toBe('http://127.0.0.1:51234/cb');
    expect(registeredRedirect(['https://app.example.test/callback'], 'https://app.example.test/callback')).toBe(
      'https://app.example.test/callback',
    );
  });

  it('lets no registered backslash URI widen to another one', () => {
    expect(registeredRedirect(['https://app.example.test/a\\b'], 'https://app.example.test/a/b')).toBeNull();
  });
});
