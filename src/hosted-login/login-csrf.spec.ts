import { LoginCsrf } from './login-csrf';

describe('LoginCsrf', () => {
  const csrf = new LoginCsrf('x'.repeat(40));

  it('accepts the token made for the cookie', () => {
    const cookie = csrf.newCookieValue();
    expect(csrf.check(cookie, csrf.tokenFor(cookie))).toBe(true);
  });

  it('refuses a token made for another cookie, a missing cookie or a token from another key', () => {
    const cookie = csrf.newCookieValue();
    expect(csrf.check(csrf.newCookieValue(), csrf.tokenFor(cookie))).toBe(false);
    expect(csrf.check(undefined, csrf.tokenFor(cookie))).toBe(false);
    expect(csrf.check(cookie, new LoginCsrf('y'.repeat(40)).tokenFor(cookie))).toBe(false);
    expect(csrf.check(cookie, '')).toBe(false);
  });
});
