import request from 'supertest';
import type { TestApp } from '../../support/app';
import type { TestEndUser } from '../../end-users/support';

export type Agent = ReturnType<typeof request.agent>;

export const newBrowser = (t: TestApp): Agent => request.agent(t.app.getHttpServer());

const csrfFrom = (html: string) => /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];

/** Follows the redirect to the hosted login page, signs in there, and returns where it sends the browser next. */
export async function signInAt(browser: Agent, loginLocation: string, user: TestEndUser): Promise<string> {
  return (await signInWithCookie(browser, loginLocation, user)).next;
}

/** signInAt, with the session cookie the login page set (`esid=…`), for another client (a second instance) to send. */
export async function signInWithCookie(
  browser: Agent,
  loginLocation: string,
  user: TestEndUser,
): Promise<{ next: string; cookie: string }> {
  const form = await browser.get(loginLocation).expect(200);
  const csrf = csrfFrom(form.text);
  if (!csrf) throw new Error(`no login form at ${loginLocation}: ${form.text.slice(0, 200)}`);
  const url = new URL(loginLocation, 'http://x');
  const res = await browser
    .post(url.pathname)
    .type('form')
    .send({
      csrf_token: csrf,
      workspace_id: url.searchParams.get('workspace_id'),
      next: url.searchParams.get('next'),
      email: user.email,
      password: user.password,
    });
  if (res.status !== 303) throw new Error(`sign-in failed: ${res.status} ${res.text.slice(0, 300)}`);
  const cookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []).find((c) => c.startsWith('esid='));
  if (!cookie) throw new Error('the login page set no esid cookie');
  return { next: res.headers.location as string, cookie: cookie.split(';')[0] };
}

/**
 * One SP-initiated sign-in in this browser: the SSO URL, then (when the IdP sends the browser
 * there) the login page as `user` and the finish step. Returns the last page.
 */
export async function ssoAs(browser: Agent, path: string, user: TestEndUser): Promise<request.Response> {
  const start = await browser.get(path);
  if (start.status !== 302) return start;
  const next = await signInAt(browser, start.headers.location as string, user);
  return browser.get(next);
}
