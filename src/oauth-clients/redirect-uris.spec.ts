import { isPrivateUseRedirectUri, isWebRedirectUri } from './redirect-uris';

describe('redirect URIs of applications', () => {
  it('takes a reverse-domain private-use scheme as RFC 8252 §7.1 shows it, with one slash or an authority', () => {
    expect(isPrivateUseRedirectUri('com.example.app:/oauth2redirect/example-provider')).toBe(true);
    expect(isPrivateUseRedirectUri('com.example.app://callback')).toBe(true);
    expect(isPrivateUseRedirectUri('com.googleusercontent.apps.1234-abc:/oauth2redirect')).toBe(true);
  });

  it('refuses a scheme without a period (RFC 8252 §8.4), web and script schemes, fragments and bare schemes', () => {
    for (const uri of [
      'myapp:/callback',
      'javascript:alert(1)',
      'data:text/html,hi',
      'http://app.example.com/cb',
      'https://app.example.com/cb',
      'com.example.app:',
      'com.example.app:/cb#frag',
      '.example.app:/cb',
      'com..example:/cb',
      'com.example.:/cb',
      '1com.example:/cb',
    ]) {
      expect([uri, isPrivateUseRedirectUri(uri)]).toEqual([uri, false]);
    }
  });

  it('takes absolute http(s) URLs as web redirect URIs, and nothing else', () => {
    expect(isWebRedirectUri('https://app.example.com/callback')).toBe(true);
    expect(isWebRedirectUri('http://127.0.0.1:8080/cb')).toBe(true);
    expect(isWebRedirectUri('com.example.app:/callback')).toBe(false);
    expect(isWebRedirectUri('app.example.com/callback')).toBe(false);
  });
});
